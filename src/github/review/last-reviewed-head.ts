import { parseTurnRecord } from '../conversation/turn-record.ts';
import type { GitHubApi, RepoRef } from '../github-api.ts';
import { isOwnLogin } from '../trust/is-own-login.ts';

/**
 * The head commit the last published review of a pull request reviewed, from the turn records of
 * agent-mux's own tracking comments on it (`reviewed`); undefined when none was.
 */
export async function lastReviewedHead(input: {
  api: Pick<GitHubApi, 'listComments'>;
  repo: RepoRef;
  pull: number;
  selfLogins: readonly string[];
}): Promise<string | undefined> {
  const { data } = await input.api.listComments(input.repo, input.pull);
  let latest: { at: string; sha: string } | undefined;
  for (const comment of data) {
    if (!comment.user || !isOwnLogin(comment.user.login, input.selfLogins)) continue;
    const record = parseTurnRecord(comment.body);
    if (record?.reviewed === undefined) continue;
    if (latest === undefined || record.at >= latest.at) latest = { at: record.at, sha: record.reviewed };
  }
  return latest?.sha;
}
