import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTurnRecord } from '../../../src/github/conversation/turn-record.ts';
import { REVIEW_CHECK_RUN_NAME } from '../../../src/github/github-names.ts';
import type { RunOutcome } from '../../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import { createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';
import { OFF_BY_ONE, pullRequestPayload, reviewerConfig, SUM_CODE } from '../../support/review-fixture.ts';
import { runInWorld } from '../../support/run-in-world.ts';

// Issue 36.4: "a push that only changes files no finding touches costs no agent run where the
// config says so (incremental review of the new commits only)". Automatic reviews on pushes,
// against the fake GitHub (REST checked against GitHub's OpenAPI description, the comparison of
// two commits included), with a Process-protocol reviewer that reports what it is given.

const config = (mode: string) =>
  reviewerConfig(['blockOn: major', 'on: [opened, synchronize]', `incremental: ${mode}`]);

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function pullRequestEvent(w: GitHubWorld, action: string) {
  return { eventName: 'pull_request', payload: pullRequestPayload(w, action) };
}

/** Pushes `files` to the pull request's branch and runs the review its `synchronize` starts. */
async function push(w: GitHubWorld, files: Record<string, string>, findings: unknown[]): Promise<RunOutcome> {
  const head = await w.commit('feature', files, 'a push');
  w.gh.state.pushHead(w.repo, 7, head);
  return reviewOn(w, 'synchronize', findings);
}

async function reviewOn(w: GitHubWorld, action: string, findings: unknown[]): Promise<RunOutcome> {
  const decision = await handleTrigger(w.deps, pullRequestEvent(w, action));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}`);
  const file = join(w.bare, '..', `findings-${Date.now()}.json`);
  await writeFile(file, JSON.stringify(findings));
  return runInWorld(w, decision.job, { answer: () => undefined, env: { ...process.env, REVIEW_FINDINGS: file } });
}

/** What the reviewer agent's tool calls were answered (undefined when no agent ran). */
function answersOf(outcome: RunOutcome): string[] | undefined {
  return (outcome.end?.output as { answers: string[] } | undefined)?.answers;
}

async function opened(mode: string): Promise<GitHubWorld> {
  const w = await createGitHubWorld({ config: config(mode) });
  world = w;
  await w.commit('feature', { 'src/sum.ts': SUM_CODE, 'src/other.ts': 'export const other = 1;\n' }, 'add sum');
  w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'alice' });
  const first = await reviewOn(w, 'opened', [OFF_BY_ONE]);
  expect(answersOf(first)).toEqual(['ok']);
  expect(first.conclusion).toBe('failure');
  return w;
}

describe('review.incremental: findings', () => {
  it('a push that changes no file a finding is in costs no agent run; one that does re-checks those files', async () => {
    const w = await opened('findings');
    const head1 = w.gh.state.pull(w.repo, 7)?.headSha;
    // The tracking comment of the first review records the head it reviewed.
    const records = w.gh.state.comments(w.repo, 7).map((c) => parseTurnRecord(c.body));
    expect(records.some((r) => r?.reviewed === head1)).toBe(true);

    const second = await push(w, { 'src/other.ts': 'export const other = 2;\n' }, [OFF_BY_ONE]);
    expect(second.end).toBeUndefined(); // no agent was started
    expect(second.conclusion).toBe('failure'); // the blocker is still open on the new head
    expect(second.reason).toContain('1 blocking finding(s) open: [blocker] src/sum.ts:4');
    const head2 = w.gh.state.pull(w.repo, 7)?.headSha;
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({
      name: REVIEW_CHECK_RUN_NAME,
      headSha: head2,
      conclusion: 'failure',
    });
    const summary = JSON.stringify(w.gh.state.checkRuns(w.repo).at(-1));
    expect(summary).toContain('no agent run: the commits since');
    expect(w.gh.state.reviews(w.repo, 7)).toHaveLength(1);

    // A push that fixes the sum changes the finding's file: the agent re-checks it, the thread is resolved.
    const third = await push(w, { 'src/sum.ts': SUM_CODE.replace('total + 1', 'total') }, []);
    expect(answersOf(third)).toEqual([]);
    expect(third.conclusion).toBe('success');
    const threads = await w.api.listReviewThreads(w.repo, 7);
    expect(threads.map((t) => t.isResolved)).toEqual([true]);
    w.gh.assertNoViolations();
  }, 120_000);
});

describe('review.incremental: new-commits', () => {
  it('reviews only the files the new commits changed: a finding elsewhere goes back to the agent as a tool error', async () => {
    const w = await opened('new-commits');
    const elsewhere = { ...OFF_BY_ONE, title: 'Another look at the sum' };
    const onOther = { path: 'src/other.ts', line: 1, severity: 'major', title: 'Name it better' };
    const second = await push(w, { 'src/other.ts': 'export const other = 2;\n' }, [elsewhere, onOther]);
    const answers = answersOf(second) ?? [];
    expect(answers[0]).toMatch(/this review covers only the files changed since the last review \(src\/other\.ts\)/);
    expect(answers[1]).toBe('ok');
    expect(w.gh.state.reviewComments(w.repo, 7).map((c) => c.path)).toEqual(['src/sum.ts', 'src/other.ts']);
    w.gh.assertNoViolations();
  }, 90_000);

  it('a mention still reviews the whole pull request', async () => {
    const w = await opened('new-commits');
    await w.commit('feature', { 'src/other.ts': 'export const other = 2;\n' }, 'a push');
    const { commentEvent } = await import('../../support/github-world.ts');
    const decision = await handleTrigger(w.deps, commentEvent(w, 7, 'alice', '@agent review', { pr: true }));
    if (decision.kind !== 'run') throw new Error('expected a run');
    const file = join(w.bare, '..', 'findings-mention.json');
    await writeFile(file, JSON.stringify([{ ...OFF_BY_ONE, line: 1, title: 'Document sum' }]));
    const outcome = await runInWorld(w, decision.job, {
      answer: () => undefined,
      env: { ...process.env, REVIEW_FINDINGS: file },
    });
    expect(answersOf(outcome)).toEqual(['ok']);
  }, 90_000);
});
