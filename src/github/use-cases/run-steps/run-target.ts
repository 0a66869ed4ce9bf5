import type { PullInfo } from '../../github-api.ts';
import { conversationBranch, conversationPull } from '../conversation-pull.ts';
import type { RunContext } from './plan-run.ts';

/** Where a run works: the pull request or the conversation's branch it goes on, and the commit. */
export interface RunTarget {
  pull: PullInfo | undefined;
  /** A follow-up whose conversation's commits are on a branch without a pull request goes on there. */
  branch: { name: string; headSha: string } | undefined;
  headSha: string;
}

/** The run's target: the mention's PR, else the conversation's PR or branch, else the default branch's head. */
export async function resolveRunTarget(ctx: RunContext): Promise<RunTarget> {
  const { api, job, plan, log } = ctx;
  const pull = (await ctx.ownPull) ?? (await conversationPull(api, job.repo, job, plan.pullRequest, log));
  const branch = pull ? undefined : await conversationBranch(api, job.repo, job, plan, log);
  const headSha = pull?.headSha ?? branch?.headSha ?? (await api.getBranchSha(job.repo, job.defaultBranch));
  if (headSha === undefined) throw new Error(`the default branch ${job.defaultBranch} has no commit`);
  return { pull, branch, headSha };
}
