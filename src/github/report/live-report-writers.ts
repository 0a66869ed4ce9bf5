import type { LiveWrites } from '../pacing/write-budget.ts';
import { type Coalescer, createCoalescer } from '../pacing/write-coalescer.ts';
import { renderCheckRunOutput } from './render-check-run.ts';
import { renderTrackingComment } from './render-tracking-comment.ts';
import type { ReportTarget } from './report-target.ts';

/** How often the live writes may happen, and the write budget they share with other runs. */
export interface LivePacing {
  /** Least time between two check-run updates; default 3000 ms. */
  checkRunIntervalMs?: number;
  /** Least time between two comment edits; default 5000 ms. */
  commentIntervalMs?: number;
  /**
   * The write budget the run shares with others (the app: its installation's `WriteBudget`): live
   * updates wait for its slots and their intervals stretch with the runs in flight. The final writes
   * do not wait for it. Default: none (updates at the intervals above).
   */
  liveWrites?: LiveWrites;
}

/**
 * The run's live writes: the progress rendered into the check run at most once per
 * `checkRunIntervalMs` and into the tracking comment at most once per `commentIntervalMs`, each
 * written only when its rendering changed. A write still waiting for its budget slot when `signal`
 * aborts is dropped.
 */
export function liveReportWriters(
  target: ReportTarget,
  pacing: LivePacing,
  signal: AbortSignal,
): { checkRun: Coalescer; comment: Coalescer } {
  const { api, repo, checkRunId, commentId, progress, info, clock, onError } = target;
  const { liveWrites } = pacing;
  const live = (write: () => Promise<void>) => () =>
    liveWrites === undefined ? write() : liveWrites.live(write, signal);
  const interval = (baseMs: number) => (liveWrites === undefined ? baseMs : () => liveWrites.liveIntervalMs(baseMs));
  let lastOutput: string | undefined;
  let lastBody: string | undefined;

  const checkRun = createCoalescer({
    intervalMs: interval(pacing.checkRunIntervalMs ?? 3000),
    clock,
    onError,
    write: live(async () => {
      const output = renderCheckRunOutput(progress);
      const key = JSON.stringify(output);
      if (key === lastOutput) return;
      await api.updateCheckRun(repo, checkRunId, { status: 'in_progress', output });
      lastOutput = key;
    }),
  });
  const comment = createCoalescer({
    intervalMs: interval(pacing.commentIntervalMs ?? 5000),
    clock,
    onError,
    write: live(async () => {
      const body = renderTrackingComment(progress, info);
      if (body === lastBody) return;
      await api.updateComment(repo, commentId, body);
      lastBody = body;
    }),
  });
  return { checkRun, comment };
}
