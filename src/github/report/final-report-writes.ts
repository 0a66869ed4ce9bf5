import type { CheckRunAnnotation, CheckRunOutput } from '../github-api.ts';
import type { FinishInfo } from './finish-info.ts';
import { chunkAnnotations, renderCheckRunOutput } from './render-check-run.ts';
import { renderTrackingComment } from './render-tracking-comment.ts';
import type { ReportTarget } from './report-target.ts';

/**
 * Closes the progress and writes the final check run (completed, with its conclusion, completion
 * time and the annotations in batches of 50 over several updates) beside the final tracking
 * comment. Each write is tried up to `attempts` times; every failure goes to `onError`, none rejects.
 */
export async function writeFinalReports(
  target: ReportTarget,
  finished: FinishInfo & { annotations?: CheckRunAnnotation[] },
  attempts: number,
): Promise<void> {
  const { api, repo, checkRunId, commentId, progress, clock } = target;
  const retrying = (what: () => Promise<void>) => retried(what, attempts, target.onError);
  const { annotations = [], ...rest } = finished;
  progress.close(finished.conclusion === 'success');
  const output: CheckRunOutput = renderCheckRunOutput(progress, { finished: rest });
  const batches = chunkAnnotations(annotations);
  const completedAt = new Date(clock.now()).toISOString();
  await Promise.all([
    (async () => {
      await retrying(() =>
        api.updateCheckRun(repo, checkRunId, {
          status: 'completed',
          conclusion: finished.conclusion,
          completedAt,
          output: batches[0] ? { ...output, annotations: batches[0] } : output,
        }),
      );
      for (const batch of batches.slice(1)) {
        await retrying(() => api.updateCheckRun(repo, checkRunId, { output: { ...output, annotations: batch } }));
      }
    })(),
    retrying(() =>
      api.updateComment(repo, commentId, renderTrackingComment(progress, { ...target.info, finished: rest })),
    ),
  ]);
}

/** Calls `what` until it resolves, `attempts` times at the most, each failure going to `onError`. */
async function retried(what: () => Promise<void>, attempts: number, onError: (error: unknown) => void): Promise<void> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await what();
      return;
    } catch (error) {
      onError(error);
    }
  }
}
