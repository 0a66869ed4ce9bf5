import { z } from 'zod';
import { defineEvent } from './event-base.ts';

export const errorCodes = [
  'malformed_record',
  'line_too_long',
  'spawn_failed',
  'program_missing',
  'version_below_minimum',
  'timeout',
  'inactivity',
  'remote_unavailable',
  'auth',
  'tool_failed',
  'stdin_blocked',
  'budget_exceeded',
  'lease_expired',
  'agent_error',
  'internal',
] as const;
export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const authErrorEvent = defineEvent('auth_error', {
  message: z.string(),
  guidance: z.string().optional(),
});
export const rateLimitErrorEvent = defineEvent('rate_limit_error', {
  message: z.string(),
  retryAfterMs: z.number().nonnegative().optional(),
});
export const contextExceededEvent = defineEvent('context_exceeded', {
  message: z.string().optional(),
  usedTokens: z.number().int().nonnegative().optional(),
  maxTokens: z.number().int().nonnegative().optional(),
});
export const crashEvent = defineEvent('crash', {
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  /** The last lines the program wrote to stderr (redacted). */
  stderr: z.string(),
});
export const errorEvent = defineEvent('error', {
  code: errorCodeSchema,
  message: z.string(),
  recoverable: z.boolean(),
});
export const debugEvent = defineEvent('debug', {
  message: z.string(),
  data: z.unknown().optional(),
});
export const logEvent = defineEvent('log', {
  source: z.enum(['stdout', 'stderr']),
  line: z.string(),
  truncated: z.boolean().optional(),
});
