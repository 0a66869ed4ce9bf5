import { errorText } from '../../core/errors/error-text.ts';
import type { TurnPlan } from '../conversation/plan-turn.ts';
import type { GitHubApi, PullInfo } from '../github-api.ts';
import type { RunJob } from './run-job.ts';

/** The conversation's pull request, for a mention on its issue: when still open and not from a fork. */
export async function conversationPull(
  api: GitHubApi,
  repo: RunJob['repo'],
  job: RunJob,
  number: number | undefined,
  log: (line: string) => void,
): Promise<PullInfo | undefined> {
  if (job.isPullRequest || number === undefined) return undefined;
  try {
    const pull = await api.getPull(repo, number);
    return pull.state === 'open' && !pull.fromFork ? pull : undefined;
  } catch (error) {
    log(`the conversation's pull request #${number} could not be read: ${errorText(error)}`);
    return undefined;
  }
}

/**
 * The conversation's branch, for a follow-up on its issue when its commits never had a pull request
 * (`git.pullRequests: false`): the last turn's branch when it still exists, at its current tip.
 */
export async function conversationBranch(
  api: GitHubApi,
  repo: RunJob['repo'],
  job: RunJob,
  plan: Pick<TurnPlan, 'branch' | 'turn' | 'pullRequest'>,
  log: (line: string) => void,
): Promise<{ name: string; headSha: string } | undefined> {
  // A conversation that had a pull request continues there while it is open, else starts anew.
  if (job.isPullRequest || plan.turn === 1 || plan.branch === undefined || plan.pullRequest !== undefined)
    return undefined;
  try {
    const headSha = await api.getBranchSha(repo, plan.branch);
    if (headSha === undefined)
      log(`the conversation's branch ${plan.branch} is gone; starting from ${job.defaultBranch}`);
    return headSha === undefined ? undefined : { name: plan.branch, headSha };
  } catch (error) {
    log(`the conversation's branch ${plan.branch} could not be read: ${errorText(error)}`);
    return undefined;
  }
}
