import type { GitHubApi } from './github-api.ts';

/**
 * `api` with each thread's comments listed at most once: a plain `listComments(repo, number)`
 * (no `since`, no ETag) asked again gets the first answer. For the reads one moment needs twice
 * (the conversation's plan and the missed mentions, before the agent starts), never for a caller
 * that waits for new comments.
 */
export function commentsReadOnce<A extends Pick<GitHubApi, 'listComments'>>(api: A): A {
  const lists = new Map<string, ReturnType<GitHubApi['listComments']>>();
  return {
    ...api,
    listComments: (ref, issueNumber, options) => {
      if (options !== undefined) return api.listComments(ref, issueNumber, options);
      const key = `${ref.owner}/${ref.repo}#${issueNumber}`;
      let list = lists.get(key);
      if (list === undefined) {
        list = api.listComments(ref, issueNumber);
        lists.set(key, list);
        // A failed read is not kept: the next caller asks again.
        list.catch(() => lists.delete(key));
      }
      return list;
    },
  };
}
