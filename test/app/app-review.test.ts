import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../src/app/store/postgres-run-store.ts';
import { REVIEW_CHECK_RUN_NAME } from '../../src/github/github-names.ts';
import { DATABASE_URL, dropSchema, freshSchema, postgresReachable } from '../app-faults/fault-postgres.ts';
import { createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { OFF_BY_ONE, pullRequestPayload, reviewerConfig, SUM_CODE } from '../support/review-fixture.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

// Issue 36 in the app: pull_request webhooks through Probot, the run claimed from PostgreSQL by the
// app's loops, the agent fenced as the app runs it; a later push with review.incremental: findings.

const CONFIG = reviewerConfig(['on: [opened, synchronize]', 'incremental: findings'], [OFF_BY_ONE]);

const available = await postgresReachable();
let world: GitHubWorld | undefined;
let app: AppWorld | undefined;
let schema: string | undefined;
afterEach(async () => {
  await app?.close();
  await world?.close();
  if (schema !== undefined) await dropSchema(schema);
  [app, world, schema] = [undefined, undefined, undefined];
});

describe.runIf(available)('the app reviews pull requests (review.on), on PostgreSQL', () => {
  it('opened: the finding posted and the check red; a push elsewhere: no agent run, still red', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    schema = freshSchema('agent_mux_review');
    const store = createPostgresRunStore({ connectionString: DATABASE_URL, schema, maxConnections: 3 });
    const a = await createAppWorld({
      world: w,
      store,
      startLoops: true,
      fenceReadOnly: [fileURLToPath(new URL('../..', import.meta.url))],
    });
    app = a;
    const finished = (count: number) =>
      waitFor(async () => {
        const runs = await a.store.list({ states: ['succeeded', 'failed', 'cancelled', 'timed_out'] });
        return runs.length >= count ? runs : undefined;
      }, `${count} finished run(s)`);

    const head1 = await w.commit('feature', { 'src/sum.ts': SUM_CODE }, 'add sum');
    w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'alice' });
    await a.receive('pull_request', pullRequestPayload(w, 'opened'));
    const [first] = await finished(1);
    expect(first?.conclusion, first?.reason).toBe('failure');
    expect(w.gh.state.reviewComments(w.repo, 7).map((c) => [c.path, c.line])).toEqual([['src/sum.ts', 4]]);
    expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({
      name: REVIEW_CHECK_RUN_NAME,
      headSha: head1,
      conclusion: 'failure',
    });

    const head2 = await w.commit('feature', { 'docs/sum.md': 'How to sum.\n' }, 'document it');
    w.gh.state.pushHead(w.repo, 7, head2);
    await a.receive('pull_request', pullRequestPayload(w, 'synchronize'));
    const runs = await finished(2);
    const second = runs.find((r) => r.id !== first?.id);
    expect(second?.conclusion, second?.reason).toBe('failure');
    const check = w.gh.state.checkRuns(w.repo).at(-1);
    expect(check).toMatchObject({ name: REVIEW_CHECK_RUN_NAME, headSha: head2, conclusion: 'failure' });
    expect(check?.output?.text).toContain('no agent run: the commits since');
    expect(w.gh.state.reviewComments(w.repo, 7)).toHaveLength(1);
    w.gh.assertNoViolations();
  }, 90_000);
});
