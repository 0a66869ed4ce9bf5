import type { GitHubApi, PullInfo } from '../github-api.ts';
import { errorText } from './error-text.ts';
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
