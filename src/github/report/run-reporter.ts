import type { AgentEvent } from '../../core/events/index.ts';
import type { CheckRunAnnotation, GitHubApi, RepoRef } from '../github-api.ts';
import { type Clock, systemClock } from '../pacing/clock.ts';
import { approvalHeartbeat } from './approval-heartbeat.ts';
import { writeFinalReports } from './final-report-writes.ts';
import type { FinishInfo } from './finish-info.ts';
import { type LivePacing, liveReportWriters } from './live-report-writers.ts';
import type { TrackingConversation } from './render-tracking-comment.ts';
import type { ReportTarget } from './report-target.ts';
import { RunProgress } from './run-progress.ts';

/** What `createRunReporter` needs; the live writes' intervals and write budget are its {@link LivePacing}. */
export interface RunReporterInput extends LivePacing {
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
  const clock = input.clock ?? systemClock;
  const onError = (error: unknown) => {
    try {
      input.onError?.(error);
    } catch {
      // A throwing error handler must not break reporting.
    }
  };
  const progress = new RunProgress({ agent: input.agent, ...(input.model ? { model: input.model } : {}) });
  const target: ReportTarget = {
    api: input.api,
    repo: input.repo,
    checkRunId: input.checkRunId,
    commentId: input.commentId,
    progress,
    info: {
      runId: input.runId,
      ...(input.checkRunUrl ? { checkRunUrl: input.checkRunUrl } : {}),
      ...(input.conversation ? { conversation: input.conversation } : {}),
    },
    clock,
    onError,
  };
  let finishing: Promise<void> | undefined;
  // Aborted when the run finishes: a live update still waiting for its slot is dropped then.
  const abortLive = new AbortController();
  const { checkRun, comment } = liveReportWriters(target, input, abortLive.signal);
  const changed = () => {
    checkRun.push();
    comment.push();
  };
  const heartbeat = approvalHeartbeat({
    clock,
    progress,
    refreshMs: input.waitingRefreshMs ?? 15_000,
    refresh: () => checkRun.push(),
    stopped: () => finishing !== undefined,
  });

  const finalize = async (finished: FinishInfo & { annotations?: CheckRunAnnotation[] }): Promise<void> => {
    // A live update that has not started is dropped; one that has is waited for (it must not land after the final one).
    abortLive.abort();
    heartbeat.stop();
    await Promise.all([checkRun.close(), comment.close()]);
    await writeFinalReports(target, finished, Math.max(1, input.finalAttempts ?? 3));
  };

  return {
    progress,
    onEvent(event) {
      if (finishing) return;
      progress.apply(event);
      changed();
      heartbeat.keepFresh();
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
