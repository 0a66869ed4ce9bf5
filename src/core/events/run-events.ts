import { z } from 'zod';
import { defineEvent, tokenUsageShape } from './event-base.ts';

/**
 * Something the run's user should know that is not an error: the core emits the plan's notices
 * (`SpawnPlan.notices`) when the program starts. `read_only`: the policy left the agent unable to
 * write (it could not ask at run time); `restricted`: another limit the agent cannot ask about;
 * `sandbox_unavailable`: the agent's own sandbox failed its probe (`SpawnPlan.sandboxProbe`), so
 * the commands it sandboxes will fail; `budget_paused`: the run's budget is spent and the agent is
 * paused until someone raises it; `budget_raised`: it was, and the agent goes on;
 * `budget_by_tokens`: a run with a dollar budget met tokens without a known price (an agent that
 * reports no cost, an unknown model): they count as $0, so its token budget is what holds it;
 * `steered`: a user's message (`RunHandle.steer`) entered the running agent's input, here in the
 * stream; `steer_queued`: one could not (the agent takes none while it runs, the run is ending), and
 * waits for the next turn.
 */
export const noticeEvent = defineEvent('notice', {
  code: z.enum([
    'read_only',
    'restricted',
    'sandbox_unavailable',
    'budget_paused',
    'budget_raised',
    'budget_by_tokens',
    'steered',
    'steer_queued',
  ]),
  message: z.string(),
});

export const runEndReasons = [
  'completed',
  'failed',
  'aborted',
  'timeout',
  'inactivity',
  'crashed',
  'budget_exceeded',
] as const;
export const runEndReasonSchema = z.enum(runEndReasons);
export type RunEndReason = z.infer<typeof runEndReasonSchema>;

export const runTotalsSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  usd: z.number().nonnegative(),
  /** Models whose tokens had no known price: `usd` counts them as 0 (reports say so). */
  unpricedModels: z.array(z.string()).optional(),
});
export type RunTotals = z.infer<typeof runTotalsSchema>;

export const costEvent = defineEvent('cost', {
  ...tokenUsageShape,
  model: z.string().optional(),
  /** USD for this increment: reported by the agent or priced from the cost model. */
  usd: z.number().nonnegative().optional(),
  /** True when these counts are the run's running total rather than an increment. */
  cumulative: z.boolean().optional(),
  extras: z.array(z.object({ label: z.string(), usd: z.number() })).optional(),
  /** The run's running totals after this event, stamped by the core (`RunEmitter`): what reports show. */
  totals: runTotalsSchema.optional(),
});

export const runEndEvent = defineEvent('run_end', {
  reason: runEndReasonSchema,
  /** Human-readable detail: the failure reason, the abort reason, … */
  message: z.string().optional(),
  exitCode: z.number().int().nullable().optional(),
  signal: z.string().nullable().optional(),
  durationMs: z.number().nonnegative(),
  sessionId: z.string().optional(),
  /** What the agent reported as its output, if anything. */
  output: z.unknown().optional(),
  totals: runTotalsSchema,
  attempts: z.number().int().positive().default(1),
});
