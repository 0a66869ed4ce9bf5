import { z } from 'zod';
import { durationSchema } from './duration.ts';
import { envNameSchema, httpAuthSchema } from './http-auth-schema.ts';

/** Adapter ids: lowercase letters, digits and dashes, starting with a letter or digit. */
export const adapterIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
  error: 'adapter ids are lowercase letters, digits and dashes, starting with a letter or digit',
});

const nonEmpty = z.string().min(1);

/** An http(s) URL. */
export const httpUrlSchema = z.string().refine(
  (value) => {
    if (!URL.canParse(value)) return false;
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  },
  { error: 'expected a URL (http:// or https://)' },
);

/** Fields every configured adapter may have. */
const commonShape = {
  /** The pricing key used when the agent reports tokens without USD (`provider/model`). */
  costModel: nonEmpty.optional(),
  /** Names of environment variables whose values are secret: redacted from every event and log. */
  secretEnv: z.array(envNameSchema).optional(),
};

/** Environment for the agent; values may use `${NAME}` to copy a variable of the host. */
const envSchema = z.record(z.string(), z.string()).default({});
/** Arguments; each may use `{{runId}}`, `{{workspacePath}}`, … and `${NAME}` templates. */
const argsSchema = z.array(z.string()).default([]);

/** An adapter entry of one `type`: its own fields, then the {@link commonShape} fields; unknown keys are errors. */
function adapterEntry<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.strictObject({ type: z.literal(type), ...shape, ...commonShape });
}

/** A local program named by `binary` (the Process and ACP adapters). */
const binaryShape = { binary: nonEmpty, args: argsSchema, env: envSchema };

/** A local program named by `command`, run in `work_dir` (the generic-cli, generic-job and external profiles). */
const commandShape = { command: nonEmpty, args: argsSchema, work_dir: z.string().default(''), env: envSchema };

/** A local program speaking the JSON-lines stdio protocol (seed: the Process adapter). */
export const processAdapterConfigSchema = adapterEntry('process', {
  ...binaryShape,
  protocol: z.literal('json-lines').default('json-lines'),
});

/**
 * A local program speaking the Agent Client Protocol (ACP v1: JSON-RPC 2.0 on stdio), e.g.
 * `gemini --experimental-acp`, `opencode acp`: mid-run permission requests, client-served files, resume.
 */
export const acpAdapterConfigSchema = adapterEntry('acp', binaryShape);

/** A remote agent speaking `ca-http-v1` (seed: the HTTP adapter). */
export const httpAdapterConfigSchema = adapterEntry('http', {
  baseUrl: httpUrlSchema,
  auth: httpAuthSchema,
  protocol: z.literal('ca-http-v1').default('ca-http-v1'),
  /** Sessions the remote serves at once; further runs wait for a free one. */
  maxConcurrentSessions: z.number().int().positive().default(4),
});

/** An interactive CLI: input on stdin, stdout and stderr streamed back (the `generic-cli` profile). */
export const genericCliAdapterConfigSchema = adapterEntry('generic-cli', {
  ...commandShape,
  /** A new process for each session, or one process kept for all. */
  spawn_policy: z.enum(['per-session', 'persistent']).default('per-session'),
});

/** A program run to completion per message, killed after `max_runtime` (the `generic-job` profile). */
export const genericJobAdapterConfigSchema = adapterEntry('generic-job', {
  ...commandShape,
  max_runtime: durationSchema.default('5m'),
});

/** A long-lived adapter process speaking the external profile's JSON-lines protocol. */
export const externalAdapterConfigSchema = adapterEntry('external', {
  ...commandShape,
});

/** An agent server's `POST /chat` Server-Sent-Events API (llm-gateway). */
export const chatSseAdapterConfigSchema = adapterEntry('chat-sse', {
  baseUrl: httpUrlSchema,
  model: nonEmpty.optional(),
  auth: httpAuthSchema,
  /** `agent` (default) or `rlm` (reasoning loop with a REPL). */
  mode: z.enum(['agent', 'rlm']).optional(),
  maxIterations: z.number().int().positive().optional(),
  maxDepth: z.number().int().positive().optional(),
  /** Extra context injected into the agent's system prompt. */
  context: z.string().optional(),
});

/**
 * Each message sent as one HTTP request, the response body returned as output (the
 * `generic-http` profile: `base_url`, `method`, `headers`, `timeout`).
 */
export const genericHttpAdapterConfigSchema = adapterEntry('generic-http', {
  base_url: httpUrlSchema,
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, { error: 'expected an HTTP method such as POST or PUT' })
    .transform((method) => method.toUpperCase())
    .default('POST'),
  /** Sent with every request; they override the default `Content-Type: text/plain; charset=utf-8`. */
  headers: z.record(z.string(), z.string()).default({}),
  timeout: durationSchema.default('60s'),
});

/** One entry of the configuration's `adapters` map, by `type`. */
export const adapterConfigSchema = z.discriminatedUnion('type', [
  processAdapterConfigSchema,
  httpAdapterConfigSchema,
  genericCliAdapterConfigSchema,
  genericJobAdapterConfigSchema,
  externalAdapterConfigSchema,
  chatSseAdapterConfigSchema,
  genericHttpAdapterConfigSchema,
  acpAdapterConfigSchema,
]);

export type AdapterConfig = z.output<typeof adapterConfigSchema>;
export type AdapterConfigInput = z.input<typeof adapterConfigSchema>;
export type AdapterConfigType = AdapterConfig['type'];
export type AdapterConfigOf<T extends AdapterConfigType> = Extract<AdapterConfig, { type: T }>;
export type ProcessAdapterConfig = AdapterConfigOf<'process'>;
export type AcpAdapterConfig = AdapterConfigOf<'acp'>;
export type HttpAdapterConfig = AdapterConfigOf<'http'>;
export type GenericCliAdapterConfig = AdapterConfigOf<'generic-cli'>;
export type GenericJobAdapterConfig = AdapterConfigOf<'generic-job'>;
export type ExternalAdapterConfig = AdapterConfigOf<'external'>;
export type ChatSseAdapterConfig = AdapterConfigOf<'chat-sse'>;
export type GenericHttpAdapterConfig = AdapterConfigOf<'generic-http'>;

/** Every `type` a configured adapter may have. */
export const adapterConfigTypes: readonly AdapterConfigType[] = adapterConfigSchema.options.map(
  (option) => option.shape.type.value,
);
