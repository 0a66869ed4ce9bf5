import { z } from 'zod';
import { modelPriceSchema, pricingKeySchema } from '../cost/pricing-table.ts';
import { retryPolicySchema } from '../retry/retry-policy.ts';
import { adapterConfigSchema, adapterIdSchema } from './adapter-config-schema.ts';

/** Run defaults that apply to every adapter unless a run says otherwise. */
export const runDefaultsSchema = z.strictObject({
  /** Whole-run limit. Default: none. */
  timeoutSeconds: z.number().positive().optional(),
  /** Ends a run when the agent prints nothing for this long. Default: none. */
  inactivitySeconds: z.number().positive().optional(),
  /** Retries of crashed (and other) runs; see `retryPolicySchema` for each field's default. */
  retry: retryPolicySchema.optional(),
});
export type RunDefaults = z.output<typeof runDefaultsSchema>;

/**
 * The agent-mux configuration file (`config.json`, or the same in YAML). Unknown keys are
 * errors everywhere, so a misspelt field is reported rather than silently ignored.
 */
export const agentMuxConfigSchema = z.strictObject({
  /** A JSON Schema URL for editors; ignored. */
  $schema: z.string().optional(),
  /** Adapters by id. An id equal to a built-in adapter's replaces it. */
  adapters: z.record(adapterIdSchema, adapterConfigSchema).default({}),
  /** Extra or overriding pricing entries, USD per million tokens, by `provider/model`. */
  pricing: z.record(pricingKeySchema, modelPriceSchema).optional(),
  defaults: runDefaultsSchema.optional(),
});

export type AgentMuxConfig = z.output<typeof agentMuxConfigSchema>;
export type AgentMuxConfigInput = z.input<typeof agentMuxConfigSchema>;
