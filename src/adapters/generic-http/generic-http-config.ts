import { z } from 'zod';
import { httpUrlSchema } from '../../core/config/adapter-config-schema.ts';
import { durationSchema } from '../../core/config/duration.ts';
import { envNameSchema } from '../../core/config/http-auth-schema.ts';

/**
 * Each message sent as one HTTP request, the response body returned as output (Amurg's
 * `generic-http` profile: `base_url`, `method`, `headers`, `timeout`). To be added to the
 * configuration's `adapterConfigSchema` union.
 */
export const genericHttpAdapterConfigSchema = z.strictObject({
  type: z.literal('generic-http'),
  base_url: httpUrlSchema,
  method: z
    .string()
    .regex(/^[A-Za-z]+$/, { error: 'expected an HTTP method such as POST or PUT' })
    .transform((method) => method.toUpperCase())
    .default('POST'),
  /** Sent with every request; they override the default `Content-Type: text/plain; charset=utf-8`. */
  headers: z.record(z.string(), z.string()).default({}),
  timeout: durationSchema.default('60s'),
  costModel: z.string().min(1).optional(),
  secretEnv: z.array(envNameSchema).optional(),
});

export type GenericHttpAdapterConfig = z.output<typeof genericHttpAdapterConfigSchema>;
export type GenericHttpAdapterConfigInput = z.input<typeof genericHttpAdapterConfigSchema>;
