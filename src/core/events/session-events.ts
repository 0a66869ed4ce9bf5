import { z } from 'zod';
import { defineEvent } from './event-base.ts';

export const sessionStartEvent = defineEvent('session_start', {
  sessionId: z.string(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  tools: z.array(z.string()).optional(),
});
export const sessionResumeEvent = defineEvent('session_resume', {
  sessionId: z.string(),
  previousSessionId: z.string().optional(),
});
export const sessionForkEvent = defineEvent('session_fork', {
  sessionId: z.string(),
  forkedFrom: z.string(),
});
export const turnStartEvent = defineEvent('turn_start', {
  turn: z.number().int().nonnegative().optional(),
});
export const turnEndEvent = defineEvent('turn_end', {
  turn: z.number().int().nonnegative().optional(),
  /** Why the turn ended as the agent reported it (`end_turn`, `max_turns`, …). */
  stopReason: z.string().optional(),
  /** The final text of the turn when the agent reports one. */
  result: z.string().optional(),
  isError: z.boolean().optional(),
  durationMs: z.number().nonnegative().optional(),
});
