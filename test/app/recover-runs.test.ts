import { afterEach, describe, expect, it } from 'vitest';
import { StaleLeaseError } from '../../src/app/store/stale-lease-error.ts';
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
    // The dead worker's late write is rejected: the fencing token moved on.
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

describe('fencing', () => {
  it('a worker whose run was taken over stops it at the next renewal and writes nothing final', async () => {
    const a = await createAppWorld({ config: CONFIG, leaseMs: 300 });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
    await a.runtime.dispatchPending();
    const work = a.runtime.workOnce('slow');
    await waitForApproval(a);
    const [run] = await a.store.list();
    const taken = await a.store.recover(run!.id, run!.fencingToken, 'fail', 'taken over by the test');
    expect(taken?.state).toBe('failed');
    const result = await work;
    expect(result).toMatchObject({ kind: 'ran', runId: run!.id, conclusion: 'cancelled', stale: true });
    expect(await a.store.get(run!.id)).toMatchObject({ state: 'failed', reason: 'taken over by the test' });
    expect(a.w.gh.state.checkRuns(a.w.repo).map((c) => c.status)).toEqual(['completed']);
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
