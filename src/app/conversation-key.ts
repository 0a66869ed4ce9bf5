import { issueOfBranch } from '../github/conversation/read-conversation.ts';
import type { GitHubApi } from '../github/github-api.ts';
import type { RunJob } from '../github/use-cases/run-job.ts';
import { runKeys } from './store/run-keys.ts';

/**
 * The conversation a run on a pull request is a turn of, when that is another issue's: the pull
 * request agent-mux opened for issue N (its head branch `<git.branchPrefix>N-…`, in this
 * repository) continues N's conversation, so its runs and N's are claimed one at a time
 * (`RunStore.enqueue`'s `conversationKey`). Undefined for issues, forks, other branches, or when
 * the pull request cannot be read (said in the log: the run then waits only for its own).
 */
export async function conversationKeyOf(
  api: Pick<GitHubApi, 'getPull'>,
  job: RunJob,
  log: (line: string) => void,
): Promise<string | undefined> {
  if (!job.isPullRequest || job.number === undefined) return undefined;
  try {
    const pull = await api.getPull(job.repo, job.number);
    if (pull.fromFork) return undefined;
    const issue = issueOfBranch(pull.headRef, job.config.git.branchPrefix);
    return issue === undefined || issue === job.number
      ? undefined
      : runKeys({ repo: job.repo, number: issue }).issueKey;
  } catch (error) {
    log(`pull request #${job.number} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
