import type { AgentEvent } from '../../core/events/index.ts';
import type { CheckRunAnnotation, CheckRunOutput, GitHubApi, RepoRef } from '../github-api.ts';
import { type Clock, systemClock } from '../pacing/clock.ts';
import type { LiveWrites } from '../pacing/write-budget.ts';
import { createCoalescer } from '../pacing/write-coalescer.ts';
import type { FinishInfo } from './finish-info.ts';
import { chunkAnnotations, renderCheckRunOutput } from './render-check-run.ts';
import { renderTrackingComment, type TrackingConversation } from './render-tracking-comment.ts';
import { RunProgress } from './run-progress.ts';

/** What `createRunReporter` needs. */
export interface RunReporterInput {
  api: Pick<GitHubApi, 'updateCheckRun' | 'updateComment'>;
  repo: RepoRef;
  checkRunId: number;
  commentId: number;
  runId: string;
  agent: string;
  model?: string;
  checkRunUrl?: string;
  /** The run's place in its conversation (turn, earlier turns), shown in the tracking comment. */
  conversation?: TrackingConversation;
  /** Default: the system clock. */
  clock?: Clock;
  /** How often the check run is refreshed while an approval waits and no event comes. Default 15 000 ms. */
  waitingRefreshMs?: number;
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
  /** Receives every failed GitHub call (the reporter never throws for them); default: ignored. */
  onError?: (error: unknown) => void;
  /** Attempts for each final write in `finish`; default 3. */
  finalAttempts?: number;
}

/** Reports one run live to its check run and its tracking comment. */
export interface RunReporter {
  /** Applies an event; the check run and the comment follow within their intervals. Ignored after `finish`. */
  onEvent(event: AgentEvent): void;
  /** Adds a line of the front end's own to the log (`approval asked on GitHub`). */
  note(line: string): void;
  readonly progress: RunProgress;
  /**
   * Writes the final check run (completed, with its conclusion, completion time and the annotations
   * in batches of 50 over several updates) and the final comment, whatever happened before. Never
   * rejects: failures go to `onError`. A second call returns the first one's promise.
   */
  finish(info: FinishInfo & { annotations?: CheckRunAnnotation[] }): Promise<void>;
}

/**
 * Glues a run's events to GitHub: a `RunProgress` fed by `onEvent`, rendered into the check run at
 * most once per `checkRunIntervalMs` and into the tracking comment at most once per
 * `commentIntervalMs`, each written only when its rendering changed.
 */
export function createRunReporter(input: RunReporterInput): RunReporter {
  const { api, repo, checkRunId, commentId, runId } = input;
  const clock = input.clock ?? systemClock;
  const onError = (error: unknown) => {
    try {
      input.onError?.(error);
    } catch {
      // A throwing error handler must not break reporting.
    }
  };
  const progress = new RunProgress({ agent: input.agent, ...(input.model ? { model: input.model } : {}) });
  let lastOutput: string | undefined;
  let lastBody: string | undefined;
  let finishing: Promise<void> | undefined;
  // Aborted when the run finishes: a live update still waiting for its slot is dropped then.
  const abortLive = new AbortController();
  const { liveWrites } = input;
  const live = (write: () => Promise<void>) => () =>
    liveWrites === undefined ? write() : liveWrites.live(write, abortLive.signal);
  const interval = (baseMs: number) => (liveWrites === undefined ? baseMs : () => liveWrites.liveIntervalMs(baseMs));
  const info = {
    runId,
    ...(input.checkRunUrl ? { checkRunUrl: input.checkRunUrl } : {}),
    ...(input.conversation ? { conversation: input.conversation } : {}),
  };

  const checkRun = createCoalescer({
    intervalMs: interval(input.checkRunIntervalMs ?? 3000),
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
    intervalMs: interval(input.commentIntervalMs ?? 5000),
    clock,
    onError,
    write: live(async () => {
      const body = renderTrackingComment(progress, info);
      if (body === lastBody) return;
      await api.updateComment(repo, commentId, body);
      lastBody = body;
    }),
  });

  const changed = () => {
    checkRun.push();
    comment.push();
  };

  // While an approval waits, no event comes: the check run is refreshed now and then all the same,
  // so that its elapsed time and the waiting approval read as current (issue 33.18).
  const waitingRefreshMs = input.waitingRefreshMs ?? 15_000;
  let heartbeat: unknown;
  const beat = () => {
    heartbeat = undefined;
    if (finishing || progress.pendingApprovals.length === 0) return;
    progress.tick(clock.now());
    checkRun.push();
    heartbeat = clock.setTimeout(beat, waitingRefreshMs);
  };
  const keepFresh = () => {
    if (heartbeat === undefined && !finishing && progress.pendingApprovals.length > 0) {
      heartbeat = clock.setTimeout(beat, waitingRefreshMs);
    }
  };

  const retrying = async (what: () => Promise<void>): Promise<void> => {
    const attempts = Math.max(1, input.finalAttempts ?? 3);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        await what();
        return;
      } catch (error) {
        onError(error);
      }
    }
  };

  const finalize = async (finished: FinishInfo & { annotations?: CheckRunAnnotation[] }): Promise<void> => {
    // A live update that has not started is dropped; one that has is waited for (it must not land after the final one).
    abortLive.abort();
    if (heartbeat !== undefined) clock.clearTimeout(heartbeat);
    await Promise.all([checkRun.close(), comment.close()]);
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
      retrying(() => api.updateComment(repo, commentId, renderTrackingComment(progress, { ...info, finished: rest }))),
    ]);
  };

  return {
    progress,
    onEvent(event) {
      if (finishing) return;
      progress.apply(event);
      changed();
      keepFresh();
    },
    note(line) {
      if (finishing) return;
      progress.note(line, Math.max(clock.now(), progress.lastEventAt ?? 0));
      changed();
    },
    finish(finished) {
      finishing ??= finalize(finished);
      return finishing;
    },
  };
}
