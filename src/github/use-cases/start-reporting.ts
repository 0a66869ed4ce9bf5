import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';
import { errorText } from '../../core/errors/error-text.ts';
import type { TurnRecord } from '../conversation/turn-record.ts';
import { turnRecordLine } from '../conversation/turn-record.ts';
import type { GitHubApi } from '../github-api.ts';
import { GitHubApiError } from '../github-api-error.ts';
import { checkRunName, REVIEW_CHECK_RUN_NAME, turnSuffix } from '../github-names.ts';
import type { Clock } from '../pacing/clock.ts';
import { runMarker, type TrackingConversation } from '../report/render-tracking-comment.ts';
import { createRunReporter, type RunReporter } from '../report/run-reporter.ts';
import type { ExecuteRunOptions } from './execute-run-options.ts';
import type { RunJob } from './run-job.ts';

/** What `startReporting` needs: the run, where it reports and the turn it is. */
export interface StartReportingInput {
  api: GitHubApi;
  job: RunJob;
  runId: string;
  headSha: string;
  /** The turn in its conversation (1 for a first run): from 2 on, the check run's name says it. */
  turn: number;
  model: string | undefined;
  /** The turn's place in its conversation, for a run on an issue or pull request. */
  tracking: TrackingConversation | undefined;
  baseRecord: TurnRecord;
  detailsUrl?: string;
  clock?: Clock;
  /** The write budget the run's live updates share (`ExecuteRunOptions.liveWrites`). */
  liveWrites?: ExecuteRunOptions['liveWrites'];
  onStarted: ExecuteRunOptions['onStarted'];
  log: (line: string) => void;
}

/**
 * A 403 on creating the check run: the token may not write checks. Says what to change; nothing
 * was started (the run stops when its reporting fails). Any other error is returned as it is.
 */
function checkRunRefused(error: unknown): unknown {
  if (!GitHubApiError.isInstance(error) || error.status !== 403) return error;
  return new AgentMuxError(
    'check_run_refused',
    'the token may not create check runs, so the agent was not started: give the workflow `checks: write` ' +
      '(with contents, issues and pull-requests: write, as the README’s workflow does); a review comment on a ' +
      'pull request from a fork always gets a read-only token from GitHub: mention the agent in the pull ' +
      `request’s conversation instead (${error.message})`,
    { cause: error },
  );
}

/** The reporter of a run and what its outcome names: its id, check run and tracking comment. */
export interface Reporting {
  reporter: RunReporter;
  base: { runId: string; checkRunId: number; checkRunName: string; checkRunUrl: string; commentId: number | undefined };
}

/**
 * Creates a run's check run (in progress) and, on an issue or pull request, its tracking comment
 * (the validated run marker, the turn's record, a first line), then the reporter that keeps both up to date.
 */
export async function startReporting(input: StartReportingInput): Promise<Reporting> {
  const { api, job, runId, turn, tracking } = input;
  const name = job.review ? REVIEW_CHECK_RUN_NAME : checkRunName(job.agentName, turn);
  const repo = job.repo;
  const checkRun = await api
    .createCheckRun(repo, {
      name,
      headSha: input.headSha,
      status: 'in_progress',
      startedAt: new Date().toISOString(),
      externalId: runId,
      detailsUrl: input.detailsUrl,
      output: { title: `${job.agentName}${turnSuffix(turn)}: starting`, summary: `Requested by @${job.actor.login}.` },
    })
    .catch((error: unknown) => {
      throw checkRunRefused(error);
    });
  const record = tracking ? `${turnRecordLine(input.baseRecord)}\n` : '';
  const comment =
    job.number === undefined
      ? undefined
      : await api.createComment(
          repo,
          job.number,
          `${runMarker(runId)}\n${record}**agent-mux** is starting **${job.agentName}**… ([check run](${checkRun.htmlUrl}))`,
        );
  input.onStarted?.({ runId, checkRunId: checkRun.id, commentId: comment?.id, checkRunUrl: checkRun.htmlUrl });
  const reporter = createRunReporter({
    api: comment === undefined ? { ...api, updateComment: async () => {} } : api,
    repo,
    checkRunId: checkRun.id,
    commentId: comment?.id ?? 0,
    runId,
    agent: job.agentName,
    model: input.model,
    checkRunUrl: checkRun.htmlUrl,
    ...(tracking ? { conversation: tracking } : {}),
    clock: input.clock,
    ...(input.liveWrites ? { liveWrites: input.liveWrites } : {}),
    onError: (error) => input.log(`report failed: ${errorText(error)}`),
  });
  return {
    reporter,
    base: { runId, checkRunId: checkRun.id, checkRunName: name, checkRunUrl: checkRun.htmlUrl, commentId: comment?.id },
  };
}
