import { z } from 'zod';

/** An environment variable name. */
export const envNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name (letters, digits, _)' });

const path = z.string().min(1);

/**
 * How an HTTP adapter authenticates:
 * - `bearer`: `Authorization: Bearer <token>`, the token read from the variable `tokenEnv` for each new session;
 * - `mtls`: a client certificate (`certPath`, `keyPath`, optional `caPath` to verify the server);
 * - `none`: trusted networks only.
 */
export const httpAuthSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('bearer'), tokenEnv: envNameSchema }),
  z.strictObject({ type: z.literal('mtls'), certPath: path, keyPath: path, caPath: path.optional() }),
  z.strictObject({ type: z.literal('none') }),
]);
export type HttpAuth = z.infer<typeof httpAuthSchema>;
