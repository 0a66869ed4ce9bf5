import { afterEach, describe, expect, it } from 'vitest';
import { REVIEW_CHECK_RUN_NAME } from '../../src/github/github-names.ts';
import { createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { OFF_BY_ONE, pullRequestPayload, reviewerConfig, SUM_CODE } from '../support/review-fixture.ts';
import { ACTION_MAIN, readCommandFile, runnerEnv, runStep } from './run-action.ts';

// The Action on `pull_request.synchronize` with `review.on: [synchronize]`: the run as the runner
// runs it (its sources, or AGENT_MUX_ACTION_DIST's bundle), fenced as by default, against the fake
// GitHub; the agent is a Process-protocol reviewer that reports one blocker through report_finding.

const CONFIG = reviewerConfig(['on: [synchronize]', 'incremental: findings'], [OFF_BY_ONE]);

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the Action reviews a pull request on a push (review.on)', () => {
  it('posts the finding inline, concludes the review check run failure, and says so in its outputs; a push elsewhere costs no agent run', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const head = await w.commit('feature', { 'src/sum.ts': SUM_CODE }, 'add sum');
    w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'alice' });
    const { result, outputs } = await pushed(w);
    expect(outputs.conclusion, `${result.stdout}\n${result.stderr}`).toBe('failure');
    const comments = w.gh.state.reviewComments(w.repo, 7);
    expect(comments.map((c) => [c.path, c.line])).toEqual([['src/sum.ts', 4]]);
    expect(comments[0]?.body).toContain('```suggestion\n  return total;\n```');
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({
      name: REVIEW_CHECK_RUN_NAME,
      headSha: head,
      conclusion: 'failure',
    });

    // review.incremental: findings — a push that changes no file a finding is in: no agent run.
    const head2 = await w.commit('feature', { 'docs/sum.md': 'How to sum.\n' }, 'document it');
    w.gh.state.pushHead(w.repo, 7, head2);
    const second = await pushed(w);
    expect(second.outputs.conclusion, `${second.result.stdout}\n${second.result.stderr}`).toBe('failure');
    expect(second.result.stdout).toContain('no agent run: the commits since');
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({ headSha: head2, conclusion: 'failure' });
    expect(w.gh.state.reviewComments(w.repo, 7)).toHaveLength(1);
    w.gh.assertNoViolations();
  }, 120_000);
});

/** The Action as the runner runs it on the `synchronize` of pull request #7 (on its current head). */
async function pushed(w: GitHubWorld) {
  const payload = pullRequestPayload(w, 'synchronize');
  const files = await runnerEnv(w, { eventName: 'pull_request', payload });
  const result = await runStep(ACTION_MAIN, files.env);
  return { result, outputs: await readCommandFile(files.output) };
}
