import type { GitHubApi, RepoRef } from '../github-api.ts';
import type { Clock } from '../pacing/clock.ts';
import type { TrackingCommentInfo } from './render-tracking-comment.ts';
import type { RunProgress } from './run-progress.ts';

/** What a run's live and final reports are rendered from and written to (`createRunReporter`'s parts share it). */
export interface ReportTarget {
  api: Pick<GitHubApi, 'updateCheckRun' | 'updateComment'>;
  repo: RepoRef;
  checkRunId: number;
  commentId: number;
  progress: RunProgress;
  /** What the tracking comment shows beyond the progress; the final one adds how the run finished. */
  info: Omit<TrackingCommentInfo, 'finished'>;
  clock: Clock;
  /** Receives every failed GitHub call; it never throws. */
  onError: (error: unknown) => void;
}
