import { parseTurnRecord } from '../conversation/turn-record.ts';
import type { GitHubApi } from '../github-api.ts';
import { isOwnLogin } from '../trust/is-own-login.ts';
import type { RunJob } from '../use-cases/run-job.ts';

/**
 * Where a run's own mention (an issue comment, or a review comment) was already delivered to an earlier run while that run was in
 * progress (steering: the earlier turn's record lists it in `steered`): the URL of that run's
 * tracking comment, or undefined when it was not. The run that the mention started then has
 * nothing left to do, and ends at once saying so.
 */
export async function steeredEarlier(
  api: Pick<GitHubApi, 'listComments'>,
  job: RunJob,
  selfLogins: readonly string[],
): Promise<string | undefined> {
  const { source } = job;
  if ((source.kind !== 'issue_comment' && source.kind !== 'review_comment') || job.number === undefined) {
    return undefined;
  }
  const { data } = await api.listComments(job.repo, job.number);
  for (const comment of data) {
    if (!comment.user || !isOwnLogin(comment.user.login, selfLogins)) continue;
    const record = parseTurnRecord(comment.body);
    const steered = source.kind === 'issue_comment' ? record?.steered : record?.steeredReview;
    if (steered?.includes(source.commentId)) return comment.htmlUrl;
  }
  return undefined;
}
