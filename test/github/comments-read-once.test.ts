import { describe, expect, it } from 'vitest';
import { commentsReadOnce } from '../../src/github/comments-read-once.ts';
import type { GitHubApi } from '../../src/github/github-api.ts';

type ListComments = GitHubApi['listComments'];

function counting(fail = 0) {
  const calls: string[] = [];
  let failures = fail;
  const listComments: ListComments = async (ref, number, options) => {
    calls.push(`${ref.repo}#${number}${options ? ` ${JSON.stringify(options)}` : ''}`);
    if (failures-- > 0) throw new Error('502');
    return { data: [], etag: undefined, notModified: false };
  };
  return { api: { listComments }, calls };
}

const repo = { owner: 'octo', repo: 'demo' };

describe('commentsReadOnce', () => {
  it('lists a thread once for plain reads, and passes conditional reads through', async () => {
    const { api, calls } = counting();
    const once = commentsReadOnce(api);
    await Promise.all([once.listComments(repo, 4), once.listComments(repo, 4)]);
    await once.listComments(repo, 4);
    await once.listComments(repo, 5);
    await once.listComments(repo, 4, { etag: 'W/"1"' });
    expect(calls).toEqual(['demo#4', 'demo#5', 'demo#4 {"etag":"W/\\"1\\""}']);
  });

  it('does not keep a failed read', async () => {
    const { api, calls } = counting(1);
    const once = commentsReadOnce(api);
    await expect(once.listComments(repo, 4)).rejects.toThrow('502');
    await once.listComments(repo, 4);
    expect(calls).toEqual(['demo#4', 'demo#4']);
  });
});
