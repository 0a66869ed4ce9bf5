/**
 * Stopping the real `probot run ./src/app/index.ts` with SIGTERM (what `docker stop` and Kubernetes
 * send): mid-run and mid-approval, the process exits with status 0 within a container's 10 s grace,
 * its run is concluded `cancelled` on GitHub (no Approve button left), the store row is final with no
 * lease, the work dir is empty and no agent process is left.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import {
  APPROVAL_AGENT,
  awaitingApproval,
  createFaultWorld,
  type FaultWorld,
  processAgent,
  waitFor,
} from '../app-faults/fault-world.ts';
import type { ProbotProcess } from './probot-process.ts';

const STUBBORN_AGENT = fileURLToPath(new URL('./fixtures/stubborn-agent.mjs', import.meta.url));

const CONFIG = `
agents:
${processAgent('approver', APPROVAL_AGENT)}${processAgent('stubborn', STUBBORN_AGENT)}approvals:
  users: []
  permission: maintain
  timeout: 120s
git:
  pullRequests: false
`;

/**
 * Probot's default write throttling stays on: the stop must fit the grace with it. The agents run in
 * the default bwrap fence, which shows them their scripts read-only.
 */
const APP_ENV = {
  AGENT_MUX_WORKERS: '1',
  AGENT_MUX_FENCE_READ_ONLY: [dirname(STUBBORN_AGENT), dirname(APPROVAL_AGENT), dirname(process.execPath)].join(':'),
};

let world: FaultWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Pids of live processes whose command line names one of the test agents (Linux `/proc`). */
async function agentProcesses(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const state = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (state.split(') ')[1]?.startsWith('Z')) continue; // a zombie is gone, only not yet reaped
    if (
      cmdline.includes(STUBBORN_AGENT) ||
      cmdline.includes('stubborn-grandchild') ||
      cmdline.includes(APPROVAL_AGENT)
    ) {
      pids.push(Number(entry));
    }
  }
  return pids;
}

/** Sends SIGTERM and waits for the exit; returns how long it took and the exit code. */
async function sigterm(app: ProbotProcess): Promise<{ ms: number; code: number | null; signal: string | null }> {
  const exited = new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
  const startedAt = Date.now();
  app.child.kill('SIGTERM');
  await exited;
  return { ms: Date.now() - startedAt, code: app.child.exitCode, signal: app.child.signalCode };
}

async function expectCleanStop(f: FaultWorld, issue: number): Promise<void> {
  const { w } = f;
  const checks = w.gh.state.checkRuns(w.repo);
  expect(checks).toHaveLength(1);
  expect(checks[0]).toMatchObject({ status: 'completed', conclusion: 'cancelled', actions: [] });
  expect(checks[0]?.output?.summary ?? '').toContain('the app was stopped');

  const tracking = w.gh.state.comments(w.repo, issue).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
  expect(tracking?.body).toContain('the app was stopped');

  expect(await readdir(join(f.root, 'work-0'))).toEqual([]);
  expect(await agentProcesses()).toEqual([]);

  const store = createSqliteRunStore({ file: join(f.root, 'data', 'agent-mux.db') });
  try {
    const runs = await store.list();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ state: 'cancelled', conclusion: 'cancelled' });
    expect(runs[0]?.leaseToken).toBeUndefined();
    expect(await store.pendingApprovals({})).toEqual([]);
    expect(await store.expiredRuns(Date.now() + 3_600_000)).toEqual([]);
  } finally {
    await store.close();
  }
}

describe.runIf(process.platform === 'linux')('SIGTERM to probot run', () => {
  it('mid-run: the agent group is killed, the run concluded cancelled, exit 0 within 10 s', async () => {
    world = await createFaultWorld(CONFIG);
    const f = world;
    const explain = () => `${f.output()}\n--- checks ---\n${JSON.stringify(f.w.gh.state.checkRuns(f.w.repo), null, 1)}`;
    const app = await f.startApp(APP_ENV);
    expect((await f.send(app, 'issue_comment', f.mention(5, '@agent stubborn: work on it'))).status).toBe(200);
    await waitFor(
      'the agent and its grandchild',
      async () => ((await agentProcesses()).length >= 2 ? true : undefined),
      explain,
    );
    await waitFor(
      'the check run in progress',
      () => f.w.gh.state.checkRuns(f.w.repo).find((c) => c.status === 'in_progress'),
      explain,
    );

    const stop = await sigterm(app);
    console.info(`SIGTERM mid-run: exited ${stop.code ?? stop.signal} after ${stop.ms} ms`);
    expect(stop, app.output()).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(10_000);
    await expectCleanStop(f, 5);
    f.w.gh.assertNoViolations();
  }, 120_000);

  it('mid-approval: the Approve button is gone, the approval comment answered, exit 0 within 10 s', async () => {
    world = await createFaultWorld(CONFIG);
    const f = world;
    const explain = () => `${f.output()}\n--- checks ---\n${JSON.stringify(f.w.gh.state.checkRuns(f.w.repo), null, 1)}`;
    const app = await f.startApp(APP_ENV);
    expect((await f.send(app, 'issue_comment', f.mention(6, '@agent approver: write FAULTS.md'))).status).toBe(200);
    await waitFor('the run waiting on approval', () => awaitingApproval(f), explain);
    const approval = await waitFor(
      'the approval comment',
      () => f.w.gh.state.comments(f.w.repo, 6).find((c) => c.body.startsWith('<!-- agent-mux:approval:')),
      explain,
    );

    const stop = await sigterm(app);
    console.info(`SIGTERM mid-approval: exited ${stop.code ?? stop.signal} after ${stop.ms} ms`);
    expect(stop, app.output()).toMatchObject({ code: 0, signal: null });
    expect(stop.ms).toBeLessThan(10_000);
    await expectCleanStop(f, 6);
    const answered = f.w.gh.state.comments(f.w.repo, 6).find((c) => c.id === approval.id);
    expect(answered?.body).not.toContain('### Approval needed');
    f.w.gh.assertNoViolations();
  }, 120_000);
});
