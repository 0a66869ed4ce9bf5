import { randomBytes } from 'node:crypto';
import { mkdir, readdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stateOf } from '../../src/app/store/run-states.ts';
import { commentEvent } from '../support/github-world.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

const CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  permission: maintain
`;

let world: AppWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function queued(leaseMs?: number): Promise<AppWorld> {
  const a = await createAppWorld({ config: CONFIG, ...(leaseMs === undefined ? {} : { leaseMs }) });
  world = a;
  a.w.gh.state.addIssue(a.w.repo, { number: 12, title: 'Typo', body: '', user: 'alice' });
  await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent fix it').payload);
  await a.runtime.dispatchPending();
  return a;
}

describe('a worker turn', () => {
  it('nothing queued: idle', async () => {
    const a = await createAppWorld({ config: CONFIG });
    world = a;
    expect(await a.runtime.workOnce('w')).toEqual({ kind: 'idle' });
  });

  it('the work dir above its bound: the run stays queued', async () => {
    const a = await queued();
    await mkdir(a.settings.workDir, { recursive: true });
    await writeFile(join(a.settings.workDir, 'leftover'), 'x'.repeat(4096));
    a.settings.maxWorkspaceBytes = 1024;
    expect(await a.runtime.workOnce('w')).toEqual({ kind: 'disk_full', bytes: 4096 });
    expect((await a.store.list())[0]?.state).toBe('queued');
    expect(a.w.gh.state.checkRuns(a.w.repo)).toEqual([]);
  });

  it('`@agent cancel` while the run waits on an approval: the run stops, concluded cancelled', async () => {
    const a = await queued();
    const work = a.runtime.workOnce('w');
    await waitFor(async () => (await a.store.pendingApprovals({ issueKey: 'octo/demo#12' }))[0], 'an approval');
    expect((await a.store.list())[0]?.state).toBe('awaiting_approval');
    await a.receive('issue_comment', commentEvent(a.w, 12, 'alice', '@agent cancel').payload);
    await a.runtime.dispatchPending();
    expect(await work).toMatchObject({ kind: 'ran', state: 'cancelled', conclusion: 'cancelled', stale: false });
    expect(await a.store.list()).toEqual([expect.objectContaining({ state: 'cancelled' })]);
    expect(a.w.gh.state.checkRuns(a.w.repo)).toEqual([
      expect.objectContaining({ status: 'completed', conclusion: 'cancelled', actions: [] }),
    ]);
    expect(await a.store.pendingApprovals({ issueKey: 'octo/demo#12' })).toEqual([]);
  });

  it('an attempt whose run another worker took over concludes its check run neutral, never a second final conclusion (CI: two `failure`s for one run)', async () => {
    const a = await queued(1_500);
    const work = a.runtime.workOnce('w');
    await waitFor(async () => (await a.store.pendingApprovals({ issueKey: 'octo/demo#12' }))[0], 'an approval');
    const [run] = await a.store.list();
    // What the recovery does to a run whose lease it saw expire: queued again, the lease epoch moved on.
    await expect(a.store.recover(run!.id, run!.leaseEpoch, 'retry', 'taken over in the test')).resolves.toMatchObject({
      state: 'queued',
      attempts: 1,
    });
    expect(await work).toMatchObject({
      kind: 'ran',
      conclusion: 'neutral',
      stale: true,
      reason: /another worker took the run over/,
    });
    expect(a.w.gh.state.checkRuns(a.w.repo)).toEqual([
      expect.objectContaining({ status: 'completed', conclusion: 'neutral' }),
    ]);
    // The next attempt works in a directory of its own.
    expect((await a.store.list())[0]).toMatchObject({ state: 'queued', attempts: 1 });
  });

  it('a run whose files pass its disk cap fails with the reason; a sparse file counts what it takes', async () => {
    const a = await queued();
    a.settings.maxRunBytes = 1024 * 1024;
    const work = a.runtime.workOnce('w');
    await waitFor(async () => (await a.store.pendingApprovals({ issueKey: 'octo/demo#12' }))[0], 'an approval');
    const [run] = await a.store.list();
    const dirs = (await readdir(a.settings.workDir)).filter((d) => d.includes(run?.id ?? '?') && !d.endsWith('.home'));
    expect(dirs).toHaveLength(1);
    const workspace = join(a.settings.workDir, dirs[0] ?? '');
    // 20 GB apparent, nothing allocated: not counted.
    await truncate(join(workspace, 'sparse.bin'), 20 * 1024 ** 3).catch(async () => {
      await writeFile(join(workspace, 'sparse.bin'), '');
      await truncate(join(workspace, 'sparse.bin'), 20 * 1024 ** 3);
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await a.store.list())[0]?.state).toBe('awaiting_approval');
    // 2 MiB written: over the 1 MiB cap.
    await writeFile(join(workspace, 'big.bin'), randomBytes(2 * 1024 * 1024));
    expect(await work).toMatchObject({
      kind: 'ran',
      state: 'failed',
      conclusion: 'failure',
      reason: /more than its 1 MiB/,
    });
    expect(a.w.gh.state.checkRuns(a.w.repo)).toEqual([
      expect.objectContaining({ status: 'completed', conclusion: 'failure' }),
    ]);
  });

  it('a clone that fails: the run fails and the issue is told why', async () => {
    const a = await queued();
    a.settings.gitBaseUrl = join(a.settings.dataDir, 'nowhere');
    expect(await a.runtime.workOnce('w')).toMatchObject({
      kind: 'ran',
      state: 'failed',
      reason: /could not clone octo\/demo/,
    });
    const comments = a.w.gh.state.comments(a.w.repo, 12).map((c) => c.body);
    expect(comments.at(-1)).toContain('could not start');
  });

  it.each([
    ['success', 'succeeded'],
    ['failure', 'failed'],
    ['cancelled', 'cancelled'],
    ['timed_out', 'timed_out'],
  ] as const)('conclusion %s → state %s', (conclusion, state) => {
    expect(stateOf(conclusion)).toBe(state);
  });
});
