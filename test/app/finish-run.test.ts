import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finishRun } from '../../src/app/finish-run.ts';
import type { RunStore } from '../../src/app/store/run-store.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { makeJob, NO_LIMITS } from './store/run-store-fixtures.ts';

let root: string | undefined;
let store: RunStore | undefined;
afterEach(async () => {
  await store?.close();
  if (root) await rm(root, { recursive: true, force: true });
  store = undefined;
  root = undefined;
});

/** A claimed run in a real SQLite store, whose `finish` first fails with `failures`. */
async function claimedRun(failures: Error[]) {
  root = await mkdtemp(join(tmpdir(), 'agent-mux-finish-'));
  const real = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
  store = real;
  await real.migrate();
  await real.enqueue({ job: makeJob({ number: 7 }), installationId: 1, adapter: 'demo', perIssue: 'queue' });
  const claimed = await real.claim('w1', 60_000, NO_LIMITS);
  if (!claimed) throw new Error('nothing claimed');
  let calls = 0;
  const flaky: Pick<RunStore, 'finish'> = {
    finish: async (lease, outcome) => {
      calls++;
      const failure = failures.shift();
      if (failure) throw failure;
      return real.finish(lease, outcome);
    },
  };
  return { real, lease: claimed.lease, runId: claimed.run.id, flaky, calls: () => calls };
}

const dropped = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
const success = { state: 'succeeded' as const, conclusion: 'success' };

describe('finishRun', () => {
  it('saves a finished run through a database outage, saying so', async () => {
    const run = await claimedRun([dropped(), new Error('Connection terminated unexpectedly')]);
    const lines: string[] = [];
    await expect(finishRun(run.flaky, run.lease, success, (l) => lines.push(l), [1, 1])).resolves.toEqual({
      stale: false,
    });
    expect(run.calls()).toBe(3);
    expect((await run.real.get(run.runId))?.state).toBe('succeeded');
    expect(lines).toEqual([
      `run ${run.runId}: could not save succeeded (terminating connection due to administrator command); trying again in 0.001 s`,
      `run ${run.runId}: could not save succeeded (Connection terminated unexpectedly); trying again in 0.001 s`,
      `run ${run.runId}: succeeded saved at attempt 3`,
    ]);
  });

  it('gives up after its waits, and at once on an error no retry mends', async () => {
    const outage = await claimedRun([dropped(), dropped(), dropped()]);
    await expect(finishRun(outage.flaky, outage.lease, success, () => {}, [1, 1])).rejects.toThrow(
      'administrator command',
    );
    expect((await outage.real.get(outage.runId))?.state).toBe('running');
    await store?.close();
    store = undefined;
    const broken = await claimedRun([new Error('syntax error at or near "UPDATE"')]);
    await expect(finishRun(broken.flaky, broken.lease, success, () => {}, [1, 1])).rejects.toThrow('syntax error');
    expect(broken.calls()).toBe(1);
  });

  it('answers stale when another worker took the run over', async () => {
    const run = await claimedRun([]);
    expect(await run.real.recover(run.runId, run.lease.leaseEpoch, 'retry', 'lease expired')).toBeDefined();
    await expect(finishRun(run.flaky, run.lease, success, () => {})).resolves.toEqual({ stale: true });
  });
});
