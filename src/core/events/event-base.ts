import { z } from 'zod';

/** Fields every normalized event carries. */
export const eventBaseShape = {
  /** The run this event belongs to. */
  runId: z.string().min(1),
  /** The adapter id that produced the run (`claude`, `process`, `demo`, …). */
  agent: z.string().min(1),
  /** Milliseconds since the Unix epoch when the core saw the event. */
  timestamp: z.number().int().nonnegative(),
  /** The native record the event came from; kept only in debug mode. */
  raw: z.unknown().optional(),
};

/** Builds one event schema from its type literal and its own fields. */
export function defineEvent<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), ...eventBaseShape, ...shape });
}

export const tokenUsageShape = {
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  thinkingTokens: z.number().int().nonnegative().optional(),
};
