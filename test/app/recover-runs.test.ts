import { afterEach, describe, expect, it } from 'vitest';
import { recoverRuns } from '../../src/app/recover-runs.ts';
import { StaleLeaseError } from '../../src/app/store/stale-lease-error.ts';
import { runTrailer } from '../../src/github/git/find-run-commit.ts';
import { issueBranchOf } from '../../src/github/use-cases/publish-result.ts';
import { commentEvent } from '../support/github-world.ts';
import { type AppWorld, createAppWorld } from './app-world.ts';

const CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  permission: maintain
`;

const LIMITS = { perRepo: 2, perAdapter: {}, defaultPerAdapter: 4 };

let world: AppWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A run claimed by a worker that then dies: it made a check run and a tracking comment and never renews. */
async function deadWorker(a: AppWorld, workerId: string) {
  const claimed = await a.store.claim(workerId, 1, LIMITS);
  if (claimed === undefined) throw new Error('nothing to claim');
  const { run, lease } = claimed;
  const check = await a.w.api.createCheckRun(a.w.repo, {
    name: 'agent-mux / demo',
    headSha: (await a.w.api.getBranchSha(a.w.repo, 'main')) ?? '',
    status: 'in_progress',
    externalId: run.id,
  });
  const comment = await a.w.api.createComment(a.w.repo, 12, `<!-- agent-mux:run:${run.id} -->\nstarting…`);
  await a.store.update(lease, { checkRunId: check.id, commentId: comment.id });
  await a.store.savePendingApproval(run.id, run.issueKey, {
    approvalId: `appr-${workerId}`,
    toolName: 'write_file',
    commitSha: 'a'.repeat(40),
    commentId: comment.id,
    askedAt: new Date().toISOString(),
  });
  await new Promise((resolve) => setTimeout(resolve, 10)); // the 1 ms lease is over
  return { run, lease, checkRunId: check.id, commentId: comment.id };
}

describe('recovery of runs whose worker died', () => {
  it('retried once (its check run concluded neutral), then failed (concluded failure with the reason); nothing stays in_progress', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();

    const first = await deadWorker(a, 'dead-1');
    const retried = await a.runtime.recover();
    expect(retried.map((r) => [r.run.id, r.action])).toEqual([[first.run.id, 'retry']]);
    expect(await a.store.get(first.run.id)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(a.w.gh.state.checkRun(first.checkRunId)).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect(a.w.gh.state.comment(first.commentId)?.body).toContain('a new attempt follows');
    expect(await a.store.pendingApprovals({ runId: first.run.id })).toEqual([]);
    // The dead worker's late write is rejected: the lease epoch moved on.
    await expect(a.store.finish(first.lease, { state: 'succeeded', conclusion: 'success' })).rejects.toSatisfy(
      StaleLeaseError.isInstance,
    );

    const second = await deadWorker(a, 'dead-2');
    expect(second.run.id).toBe(first.run.id);
    const failed = await a.runtime.recover();
    expect(failed.map((r) => r.action)).toEqual(['fail']);
    expect(await a.store.get(first.run.id)).toMatchObject({ state: 'failed' });
    const check = a.w.gh.state.checkRun(second.checkRunId);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(check?.output?.summary).toContain('dead-2 stopped renewing its lease');
    expect(a.w.gh.state.comment(second.commentId)?.body).toContain('run failed');

    expect(a.w.gh.state.checkRuns(a.w.repo).filter((c) => c.status !== 'completed')).toEqual([]);
    expect(await a.runtime.recover()).toEqual([]);
    a.w.gh.assertNoViolations();
  });

  it('a run whose lease is alive is left alone', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    await a.store.claim('alive', 60_000, LIMITS);
    expect(await a.runtime.recover()).toEqual([]);
    expect((await a.store.list())[0]?.state).toBe('running');
  });

  it('the retried run is picked up by a live worker and concluded', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    const dead = await deadWorker(a, 'dead');
    await a.runtime.recover();
    // bob (maintain) may approve; his `/approve` reaches the new attempt through the store.
    const work = a.runtime.workOnce('live');
    const approval = await waitForApproval(a);
    await a.receive('issue_comment', commentEvent(a.w, 12, 'bob', `/approve ${approval}`).payload);
    await a.runtime.dispatchPending();
    const result = await work;
    expect(result).toMatchObject({ kind: 'ran', runId: dead.run.id, state: 'succeeded', stale: false });
    expect(a.w.gh.state.checkRuns(a.w.repo).map((c) => [c.status, c.conclusion])).toEqual([
      ['completed', 'neutral'],
      ['completed', 'success'],
    ]);
  });
});

describe('recovery of a run whose worker had concluded it on GitHub', () => {
  async function startedRun(a: AppWorld) {
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    return deadWorker(a, 'dead');
  }

  it('a check run concluded success before the worker died (or lost its database) is recorded succeeded, not retried, and GitHub is left as it was', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    const dead = await startedRun(a);
    // The worker's reporter concluded the check run and wrote the final comment; the final save never came.
    await a.w.api.updateCheckRun(a.w.repo, dead.checkRunId, {
      status: 'completed',
      conclusion: 'success',
      completedAt: new Date().toISOString(),
      output: { title: 'demo: succeeded', summary: 'Pull request #13 opened.' },
      actions: [],
    });
    const finalBody = `<!-- agent-mux:run:${dead.run.id} -->\n✅ succeeded: pull request #13`;
    await a.w.api.updateComment(a.w.repo, dead.commentId, finalBody);
    const writesBefore = a.w.gh.requests.filter((r) => r.method !== 'GET').length;

    const recovered = await a.runtime.recover();
    expect(recovered.map((r) => [r.run.id, r.action])).toEqual([[dead.run.id, 'reported']]);
    expect(await a.store.get(dead.run.id)).toMatchObject({ state: 'succeeded', conclusion: 'success', attempts: 0 });
    expect((await a.store.get(dead.run.id))?.reason).toContain('concluded the check run success');
    // Nothing on GitHub was rewritten: the check run, its output and the comment are the worker's.
    expect(a.w.gh.state.checkRun(dead.checkRunId)).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      output: { title: 'demo: succeeded' },
    });
    expect(a.w.gh.state.comment(dead.commentId)?.body).toBe(finalBody);
    expect(a.w.gh.requests.filter((r) => r.method !== 'GET').length).toBe(writesBefore);
    expect(await a.store.pendingApprovals({ runId: dead.run.id })).toEqual([]);
    // The dead worker's late save is rejected, and there is nothing left to recover or to claim.
    await expect(a.store.finish(dead.lease, { state: 'failed', conclusion: 'failure' })).rejects.toSatisfy(
      StaleLeaseError.isInstance,
    );
    expect(await a.runtime.recover()).toEqual([]);
    expect(await a.store.claim('live', 60_000, LIMITS)).toBeUndefined();
    expect(a.w.gh.state.checkRuns(a.w.repo)).toHaveLength(1);
    a.w.gh.assertNoViolations();
  });

  it('a check run concluded failure is recorded failed with GitHub left as it was', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    const dead = await startedRun(a);
    await a.w.api.updateCheckRun(a.w.repo, dead.checkRunId, {
      status: 'completed',
      conclusion: 'failure',
      completedAt: new Date().toISOString(),
      output: { title: 'demo: failed', summary: 'The agent exited 1.' },
      actions: [],
    });
    expect((await a.runtime.recover()).map((r) => r.action)).toEqual(['reported']);
    expect(await a.store.get(dead.run.id)).toMatchObject({ state: 'failed', conclusion: 'failure' });
    expect(a.w.gh.state.checkRun(dead.checkRunId)?.output?.summary).toBe('The agent exited 1.');
  });

  it("a retried attempt that dies before it makes its own check run is not taken for its predecessor's neutral one", async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    const dead = await startedRun(a);
    expect((await a.runtime.recover()).map((r) => r.action)).toEqual(['retry']);
    expect(a.w.gh.state.checkRun(dead.checkRunId)).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    expect((await a.store.get(dead.run.id))?.checkRunId).toBeUndefined();
    // The second attempt is claimed and its worker dies at once: no check run of its own yet.
    expect(await a.store.claim('dead-again', 1, LIMITS)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await a.runtime.recover()).map((r) => r.action)).toEqual(['fail']);
    expect(await a.store.get(dead.run.id)).toMatchObject({ state: 'failed' });
    expect(a.w.gh.state.comment(dead.commentId)?.body).toContain('run failed');
  });

  it('a check run GitHub cannot be asked about is treated as unfinished: the run is retried as before', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    const dead = await startedRun(a);
    const logs: string[] = [];
    const access = {
      api: async () => ({
        ...a.w.api,
        getCheckRun: async () => {
          throw new Error('GET check run: 502 Bad Gateway');
        },
      }),
      token: async () => 'unused',
    };
    const recovered = await recoverRuns({ store: a.store, access, log: (line) => logs.push(line) });
    expect(recovered.map((r) => r.action)).toEqual(['retry']);
    expect(logs.join('\n')).toContain(
      'could not read its check run, so it is treated as unfinished: GET check run: 502',
    );
    expect(a.w.gh.state.checkRun(dead.checkRunId)).toMatchObject({ status: 'completed', conclusion: 'neutral' });
  });
});

describe("a retry after its predecessor pushed the run's commit", () => {
  async function pushedThenDied(a: AppWorld, trailerOf: string) {
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    const dead = await deadWorker(a, 'dead');
    const job = (await a.store.get(dead.run.id))?.job;
    if (job === undefined) throw new Error('no job');
    // The dead attempt committed the agent's change with the run's trailer and pushed it; the pull
    // request, the check run's conclusion and the final save never came.
    const branch = issueBranchOf(job);
    const sha = await a.w.commit(
      branch,
      { 'README.md': 'This project shows the fix.\n' },
      `agent-mux: Typo\n\nRequested by @alice in #12 (agent: demo).\n\n${runTrailer(trailerOf === 'self' ? dead.run.id : trailerOf)}`,
    );
    expect((await a.runtime.recover()).map((r) => r.action)).toEqual(['retry']);
    return { dead, branch, sha };
  }

  it('publishes that commit (one pull request from its branch) and does not run the agent again', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    const { dead, branch, sha } = await pushedThenDied(a, 'self');

    // The demo agent would ask to write (an approval no one gives here): the run ends without it.
    const result = await a.runtime.workOnce('live');
    expect(result).toMatchObject({ kind: 'ran', runId: dead.run.id, state: 'succeeded', stale: false });
    expect(await a.store.pendingApprovals({ runId: dead.run.id })).toEqual([]);
    const pulls = a.w.gh.state.pulls(a.w.repo);
    expect(pulls.map((p) => p.headRef)).toEqual([branch]);
    expect(await a.w.git(['rev-parse', `refs/heads/${branch}`], a.w.bare)).toBe(sha);
    expect(await a.w.git(['branch', '--list', `${branch}-2`], a.w.bare)).toBe('');
    const checks = a.w.gh.state.checkRuns(a.w.repo);
    expect(checks.map((c) => [c.status, c.conclusion])).toEqual([
      ['completed', 'neutral'],
      ['completed', 'success'],
    ]);
    expect(JSON.stringify(checks[1]?.output)).toContain('was not run again');
    expect(JSON.stringify(checks[1]?.output)).toContain('README.md');
    a.w.gh.assertNoViolations();
  });

  it('a commit of another run on the branch is not taken: the agent runs again and publishes to a branch of its own', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    const { dead, branch } = await pushedThenDied(a, 'run_someone_else');
    const work = a.runtime.workOnce('live');
    const approval = await waitForApproval(a);
    await a.receive('issue_comment', commentEvent(a.w, 12, 'bob', `/approve ${approval}`).payload);
    await a.runtime.dispatchPending();
    expect(await work).toMatchObject({ kind: 'ran', runId: dead.run.id, state: 'succeeded' });
    expect(a.w.gh.state.pulls(a.w.repo).map((p) => p.headRef)).toEqual([`${branch}-2`]);
    const tip = await a.w.git(['log', '-1', '--format=%B', `refs/heads/${branch}-2`], a.w.bare);
    expect(tip).toContain(runTrailer(dead.run.id));
  });
});

describe('fencing', () => {
  it('a worker whose run was taken over stops it at the next renewal, writes nothing final to the store and leaves its check run neutral', async () => {
    const a = await createAppWorld({ config: CONFIG, leaseMs: 300 });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    const work = a.runtime.workOnce('slow');
    await waitForApproval(a);
    const [run] = await a.store.list();
    const taken = await a.store.recover(run!.id, run!.leaseEpoch, 'fail', 'taken over by the test');
    expect(taken?.state).toBe('failed');
    const result = await work;
    expect(result).toMatchObject({ kind: 'ran', runId: run!.id, conclusion: 'neutral', stale: true });
    expect(await a.store.get(run!.id)).toMatchObject({ state: 'failed', reason: 'taken over by the test' });
    // Not a second final conclusion beside the recovery's: neutral, saying why.
    expect(a.w.gh.state.checkRuns(a.w.repo)).toEqual([
      expect.objectContaining({
        status: 'completed',
        conclusion: 'neutral',
        output: expect.objectContaining({ summary: expect.stringContaining('another worker took the run over') }),
      }),
    ]);
  });
});

async function waitForApproval(a: AppWorld): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const [pending] = await a.store.pendingApprovals({ issueKey: 'octo/demo#12' });
    if (pending) return pending.approvalId;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no approval asked');
}
