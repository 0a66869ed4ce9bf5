import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, SELF_LOGIN, TYPO_README } from '../support/github-world.ts';
import { approveEachAs, runInWorld } from '../support/run-in-world.ts';

const APPROVALS = `
agents:
  demo:
    adapter: demo
approvals:
  permission: maintain
  timeout: 20s
`;

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/**
 * A fork of the world's repository (its own bare repository, as GitHub keeps one per fork) with a
 * branch `fork-branch` changing `files`, and pull request `number` from it: its head is fetched
 * into the base repository as `refs/pull/<number>/head`, as GitHub does.
 */
async function forkPull(w: GitHubWorld, number: number, files: Record<string, string>) {
  const fork = join(dirname(w.bare), 'fork.git');
  const scratch = join(dirname(w.bare), 'fork-scratch');
  await w.git(['clone', '-q', '--bare', w.bare, fork]);
  await w.git(['clone', '-q', fork, scratch]);
  await w.git(['checkout', '-q', '-b', 'fork-branch'], scratch);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(scratch, path)), { recursive: true });
    await writeFile(join(scratch, path), text);
  }
  await w.git(['add', '--', ...Object.keys(files)], scratch);
  await w.git(['commit', '-q', '-m', 'a contribution'], scratch);
  await w.git(['push', '-q', 'origin', 'fork-branch'], scratch);
  const head = (await w.git(['rev-parse', 'HEAD'], scratch)).trim();
  await w.git(['fetch', '-q', fork, `refs/heads/fork-branch:refs/pull/${number}/head`], w.bare);
  w.gh.state.addPull(w.repo, {
    number,
    title: 'A contribution',
    headRef: 'fork-branch',
    headSha: head,
    baseRef: 'main',
    fromFork: 'eve',
    maintainerCanModify: true,
    user: 'eve',
  });
  const refs = () => w.git(['for-each-ref', '--format=%(refname) %(objectname)'], fork);
  return { head, forkRefs: await refs(), refs };
}

/** Asks for a fix on pull request `number` and runs it, `bob` (maintain) approving every tool call. */
async function fix(w: GitHubWorld, number: number): Promise<RunOutcome> {
  const decision = await handleTrigger(w.deps, commentEvent(w, number, 'alice', '@agent fix the typo', { pr: true }));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${decision.kind}`);
  return runInWorld(w, decision.job, { answer: approveEachAs(w, number, 'bob') });
}

function trackingComment(w: GitHubWorld, number: number): string {
  return w.gh.state.comments(w.repo, number).find((c) => c.body.includes('<!-- agent-mux:run:'))?.body ?? '';
}

/** The README with its first line changed, so that the typo's line (3) is in the fork pull request's diff. */
const README_IN_DIFF = TYPO_README.replace('# Demo project', '# Demo project!');
const FIXED_LINE = 'This project shows how agent-mux runs an agent.';

describe('fork pull requests get their fix without anything pushed to the fork', () => {
  it('forks.delivery pull-request: a branch in the base repository on the fork head and a pull request against its base', async () => {
    const w = await createGitHubWorld({ config: `${APPROVALS}forks:\n  delivery: pull-request\n` });
    world = w;
    const { head, forkRefs, refs } = await forkPull(w, 12, { 'README.md': README_IN_DIFF });

    const outcome = await fix(w, 12);

    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBe('agent-mux/12-a-contribution');
    expect(await refs()).toBe(forkRefs);
    expect(await w.git(['show', `${outcome.branch}:README.md`], w.bare)).toContain(FIXED_LINE);
    expect((await w.git(['rev-parse', `${outcome.branch}~1`], w.bare)).trim()).toBe(head);
    expect(await w.git(['for-each-ref', '--format=%(refname)', 'refs/heads'], w.bare)).toBe(
      'refs/heads/agent-mux/12-a-contribution\nrefs/heads/main',
    );

    const created = w.gh.state.pulls(w.repo).find((p) => p.number !== 12);
    expect(created).toMatchObject({ title: 'Fix for #12 (from agent-mux)', baseRef: 'main', fromFork: false });
    expect(created?.body).toContain(`git pull https://github.com/octo/demo.git ${outcome.branch}`);
    expect(outcome.pullRequestUrl).toBe(`https://github.com/octo/demo/pull/${created?.number}`);
    expect(w.gh.state.reviews(w.repo, 12).filter((r) => r.user.login === SELF_LOGIN)).toEqual([]);

    const comment = trackingComment(w, 12);
    expect(comment).toContain(`**To take the change:** merge [\\#${created?.number}](${outcome.pullRequestUrl})`);
    expect(comment).toContain(`\`git pull https://github.com/octo/demo.git agent-mux/12-a-contribution\``);
    w.gh.assertNoViolations();
  });

  it('a second request on the same fork pull request: a delivery branch and pull request of its own, the first left alone', async () => {
    const w = await createGitHubWorld({ config: `${APPROVALS}forks:\n  delivery: pull-request\n` });
    world = w;
    const { head, forkRefs, refs } = await forkPull(w, 12, { 'README.md': README_IN_DIFF });
    const first = await fix(w, 12);
    const firstTip = (await w.git(['rev-parse', `${first.branch}`], w.bare)).trim();

    // The run starts again from the fork's head, which does not hold the first delivery's commit.
    const second = await fix(w, 12);

    expect(second.conclusion, second.reason).toBe('success');
    expect(second.branch).toBe('agent-mux/12-a-contribution-2');
    expect((await w.git(['rev-parse', `${second.branch}~1`], w.bare)).trim()).toBe(head);
    expect((await w.git(['rev-parse', `${first.branch}`], w.bare)).trim()).toBe(firstTip);
    expect(await refs()).toBe(forkRefs);
    expect(w.gh.state.pulls(w.repo).map((p) => p.headRef)).toEqual([
      'fork-branch',
      'agent-mux/12-a-contribution',
      'agent-mux/12-a-contribution-2',
    ]);
    w.gh.assertNoViolations();
  });

  it('forks.delivery suggestions: a review on the fork pull request with a suggestion block on the changed line', async () => {
    const w = await createGitHubWorld({ config: `${APPROVALS}forks:\n  delivery: suggestions\n` });
    world = w;
    const { head, forkRefs, refs } = await forkPull(w, 14, { 'README.md': README_IN_DIFF });

    const outcome = await fix(w, 14);

    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBeUndefined();
    expect(await refs()).toBe(forkRefs);
    expect(await w.git(['for-each-ref', '--format=%(refname)', 'refs/heads'], w.bare)).toBe('refs/heads/main');
    expect(w.gh.state.pulls(w.repo)).toHaveLength(1);

    const [review] = w.gh.state.reviews(w.repo, 14).filter((r) => r.user.login === SELF_LOGIN);
    expect(review).toMatchObject({ state: 'COMMENTED', commitId: head });
    expect(review?.body).toContain('Commit suggestions');
    const comments = w.gh.state.reviewComments(w.repo, 14).filter((c) => c.reviewId === review?.id);
    expect(comments).toEqual([
      expect.objectContaining({
        path: 'README.md',
        line: 3,
        startLine: null,
        side: 'RIGHT',
        body: `\`\`\`suggestion\n${FIXED_LINE}\n\`\`\``,
      }),
    ]);
    const reviewRequest = w.gh.requests.find((r) => r.operationId === 'pulls/create-review');
    expect(reviewRequest?.status).toBe(200);

    const comment = trackingComment(w, 14);
    expect(comment).toContain(
      `**To take the change:** apply the 1 suggestion in [review ${review?.id}](https://github.com/octo/demo/pull/14#pullrequestreview-${review?.id})`,
    );
    w.gh.assertNoViolations();
  });

  it('forks.delivery auto (the default): suggestions for a small change on lines of the diff', async () => {
    const w = await createGitHubWorld({ config: APPROVALS });
    world = w;
    await forkPull(w, 15, { 'README.md': README_IN_DIFF });

    const outcome = await fix(w, 15);

    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBeUndefined();
    expect(w.gh.state.reviews(w.repo, 15).filter((r) => r.user.login === SELF_LOGIN)).toHaveLength(1);
    expect(trackingComment(w, 15)).toContain('apply the 1 suggestion in [review');
    w.gh.assertNoViolations();
  });

  it('forks.delivery auto: a pull request when the change is on lines the fork pull request does not touch', async () => {
    const w = await createGitHubWorld({ config: APPROVALS });
    world = w;
    const { forkRefs, refs } = await forkPull(w, 16, { 'x.txt': 'x\n' });

    const outcome = await fix(w, 16);

    expect(outcome.conclusion).toBe('success');
    expect(outcome.branch).toBe('agent-mux/16-a-contribution');
    expect(await refs()).toBe(forkRefs);
    expect(w.gh.state.reviews(w.repo, 16).filter((r) => r.user.login === SELF_LOGIN)).toEqual([]);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(2);
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check?.output?.text).toContain("README.md is not in the pull request's diff");
    expect(trackingComment(w, 16)).toContain(
      '**To take the change:** merge [\\#17](https://github.com/octo/demo/pull/17)',
    );
    w.gh.assertNoViolations();
  });
});
