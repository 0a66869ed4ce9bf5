import type { LaunchContext, ProcessController, RunIO } from '../../../core/adapter/index.ts';
import type { AgentEvent } from '../../../core/events/index.ts';
import { rememberSession } from './openclaw-plan.ts';

/**
 * Tells the plan's cleanup which session a new run created, so its state dir is kept for
 * `openclaw agent --local --session-id` (resume).
 */
export function openclawController(_io: RunIO, ctx: LaunchContext): ProcessController {
  return {
    onEvent(event: AgentEvent) {
      if (event.type !== 'session_start' || ctx.request.resumeSessionId) return;
      rememberSession(ctx.runId, event.sessionId);
    },
  };
}
