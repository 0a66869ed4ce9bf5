import type { GitHubApi, RepoRef } from '../github/github-api.ts';
import { parseRunMarker } from '../github/report/render-tracking-comment.ts';

/** The run id the Action gives its runs: it names the workflow run, so another job can cancel it. */
export function actionRunId(workflowRunId: string, attempt: string): string {
  return `gha-${workflowRunId}-${attempt}`;
}

const ACTION_RUN = /^gha-(\d+)-\d+$/;

/**
 * `@agent cancel`: finds the workflow runs whose agent-mux runs report on this issue or pull
 * request (their tracking comments carry the run id) and cancels those still in progress
 * through the Actions API. Returns the ids it cancelled.
 */
export async function cancelWorkflowRuns(input: {
  api: Pick<GitHubApi, 'listComments' | 'getWorkflowRun' | 'cancelWorkflowRun'>;
  repo: RepoRef;
  number: number;
  /** This job's own workflow run, never cancelled. */
  currentRunId?: number;
  selfLogins: readonly string[];
  log?: (line: string) => void;
}): Promise<number[]> {
  const { api, repo } = input;
  const self = new Set(input.selfLogins.map((l) => l.toLowerCase()));
  const { data: comments } = await api.listComments(repo, input.number);
  const ids = new Set<number>();
  for (const comment of comments) {
    if (!comment.user || !self.has(comment.user.login.toLowerCase())) continue;
    const match = ACTION_RUN.exec(parseRunMarker(comment.body) ?? '');
    if (match?.[1]) ids.add(Number(match[1]));
  }
  const cancelled: number[] = [];
  for (const id of ids) {
    if (id === input.currentRunId) continue;
    const run = await api.getWorkflowRun(repo, id);
    if (!run || run.status === 'completed') continue;
    await api.cancelWorkflowRun(repo, id);
    input.log?.(`cancelled workflow run ${id}`);
    cancelled.push(id);
  }
  return cancelled;
}
