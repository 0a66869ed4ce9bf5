import { describe, expect, it } from 'vitest';
import { conversationKeyOf } from '../../src/app/conversation-key.ts';
import type { PullInfo } from '../../src/github/github-api.ts';
import { makeJob } from './store/run-store-fixtures.ts';

const pullJob = (number: number) => ({ ...makeJob({ number }), isPullRequest: true });
const api = (pull: Partial<PullInfo> | Error) => ({
  getPull: async (): Promise<PullInfo> => {
    if (pull instanceof Error) throw pull;
    return { headRef: 'feature', fromFork: false, ...pull } as PullInfo;
  },
});

describe('conversationKeyOf', () => {
  it('a pull request on agent-mux’s branch for issue 7 is a turn of issue 7’s conversation', async () => {
    expect(await conversationKeyOf(api({ headRef: 'agent-mux/7-write-notes' }), pullJob(8), () => {})).toBe(
      'octo/demo#7',
    );
  });

  it.each([
    ['an issue', makeJob({ number: 7 }), api({ headRef: 'agent-mux/7-x' })],
    ['a branch of another name', pullJob(8), api({ headRef: 'feature/7-x' })],
    ['a fork', pullJob(8), api({ headRef: 'agent-mux/7-x', fromFork: true })],
    ['its own number', pullJob(7), api({ headRef: 'agent-mux/7-x' })],
  ])('none for %s', async (_name, job, github) => {
    expect(await conversationKeyOf(github, job, () => {})).toBeUndefined();
  });

  it('none, said in the log, when the pull request cannot be read', async () => {
    const lines: string[] = [];
    expect(
      await conversationKeyOf(api(new Error('502 Bad Gateway')), pullJob(8), (l) => lines.push(l)),
    ).toBeUndefined();
    expect(lines).toEqual(['pull request #8 could not be read: 502 Bad Gateway']);
  });
});
