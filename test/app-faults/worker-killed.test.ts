/**
 * A worker dies without a word: the real `probot run` is SIGKILLed while its run waits on an
 * approval. A second `probot run` on the same SQLite file takes the run over once the lease expired
 * (retried once, per the app's policy), and the run completes there: never lost, never two attempts
 * alive at once, nothing left `in_progress` on GitHub. A run whose worker dies twice is failed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import type { ProbotProcess } from '../app-e2e/probot-process.ts';
import {
  APPROVAL_AGENT,
  awaitingApproval,
  checkName,
  createFaultWorld,
  type FaultWorld,
  markedProcesses,
  processAgent,
  waitFor,
} from './fault-world.ts';

const CONFIG = `
agents:
${processAgent('approver', APPROVAL_AGENT)}approvals:
  users: []
  permission: maintain
  timeout: 120s
git:
  pullRequests: false
`;

const APP_ENV = { AGENT_MUX_LEASE_SECONDS: '2', AGENT_MUX_WORKERS: '1', AGENT_MUX_GITHUB_THROTTLE: 'off' };

let world: FaultWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** SIGKILLs a `probot run` child and waits until it is gone. */
async function sigkill(app: ProbotProcess): Promise<void> {
  app.child.kill('SIGKILL');
  await new Promise<void>((resolve) => {
    if (app.child.exitCode !== null || app.child.signalCode !== null) resolve();
    else app.child.once('exit', () => resolve());
  });
  expect(app.child.signalCode).toBe('SIGKILL');
}

/** Pids of the live approval agents of this world. */
async function liveAgents(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const pid of await markedProcesses(marker)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('approval-agent.mjs')) pids.push(pid);
  }
  return pids;
}

// The agents are found through /proc.
describe.runIf(process.platform === 'linux')('a SIGKILLed app', () => {
  it('recovers a run whose app was SIGKILLed mid-run: retried on a new app, concluded once, never twice at once', async () => {
    world = await createFaultWorld(CONFIG);
    const f = world;
    const { w } = f;
    const explain = () => `${f.output()}\n--- agents ---\n${JSON.stringify(w.gh.state.checkRuns(w.repo), null, 1)}`;

    // Sample the live agents all along: never two at once.
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, (await liveAgents(f.marker)).length);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const first = await f.startApp(APP_ENV);
    expect((await f.send(first, 'issue_comment', f.mention(7, '@agent approver: write FAULTS.md'))).status).toBe(200);
    const before = await waitFor('the first attempt waiting on approval', () => awaitingApproval(f), explain);
    const [agentBefore] = await waitFor(
      'the first agent',
      async () => {
        const pids = await liveAgents(f.marker);
        return pids.length > 0 ? pids : undefined;
      },
      explain,
    );

    await sigkill(first);
    // Its agent loses its stdin and ends; nothing of the dead app keeps running the run.
    await waitFor(
      'the orphaned agent to end',
      async () => ((await liveAgents(f.marker)).includes(agentBefore!) ? undefined : true),
      explain,
      10_000,
    );

    const second = await f.startApp(APP_ENV);
    const after = await waitFor(
      'the retried attempt waiting on approval',
      () => {
        const pending = awaitingApproval(f);
        return pending !== undefined && pending.id !== before.id ? pending : undefined;
      },
      explain,
    );
    expect(after.externalId).toBe(before.externalId);
    const old = w.gh.state.checkRun(before.id);
    expect(old?.status).toBe('completed');
    expect(old?.conclusion).toBe('neutral');
    expect(old?.actions).toEqual([]);

    expect((await f.send(second, 'check_run', f.buttonPress(after, after.approve, 'bob'))).status).toBe(200);
    const done = await waitFor(
      'the retried attempt to complete',
      () => {
        const check = w.gh.state.checkRun(after.id);
        return check?.status === 'completed' ? check : undefined;
      },
      explain,
    );
    expect(done.conclusion).toBe('success');
    await waitFor(
      'the last agent to end',
      async () => ((await liveAgents(f.marker)).length === 0 ? true : undefined),
      explain,
      10_000,
    );
    sampling = false;
    await sampler;

    // GitHub: two check runs of the one run, the dead attempt's neutral, none left in progress.
    const checks = w.gh.state.checkRuns(w.repo);
    expect(checks.map((c) => [c.name, c.status, c.conclusion])).toEqual([
      [checkName('approver'), 'completed', 'neutral'],
      [checkName('approver'), 'completed', 'success'],
    ]);
    const tracking = w.gh.state.comments(w.repo, 7).filter((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking.some((c) => c.body.includes('a new attempt follows'))).toBe(true);

    // The store: one run, retried once, finished by the second app with a newer fencing token.
    await second.stop();
    const store = createSqliteRunStore({ file: join(f.root, 'data', 'agent-mux.db') });
    try {
      const runs = await store.list();
      expect(runs).toHaveLength(1);
      const [run] = runs;
      expect(run).toMatchObject({ state: 'succeeded', conclusion: 'success', attempts: 1, checkRunId: after.id });
      expect(run?.leaseToken).toBeUndefined();
      expect(await store.pendingApprovals({ runId: run!.id })).toEqual([]);
      expect(await store.expiredRuns(Date.now() + 3_600_000)).toEqual([]);

      // The agents: two attempts, each with its own fencing token, the second started after the first ended.
      const events = await f.agentEvents();
      const starts = events.filter((e) => e.what === 'start');
      expect(starts).toHaveLength(2);
      expect(starts.every((e) => e.runId === run!.id)).toBe(true);
      const [a, b] = starts;
      expect(b!.fencing).toBeGreaterThan(a!.fencing);
      expect(run!.leaseEpoch).toBeGreaterThanOrEqual(b!.fencing);
      const firstExit = events.find((e) => e.what === 'exit' && e.pid === a!.pid);
      expect(firstExit).toBeDefined();
      expect(firstExit!.at).toBeLessThanOrEqual(b!.at);
      expect(most).toBe(1);
    } finally {
      await store.close();
    }
    w.gh.assertNoViolations();
  }, 120_000);

  it('fails a run whose app was SIGKILLed twice: no retry left, concluded failure, nothing in progress', async () => {
    world = await createFaultWorld(CONFIG);
    const f = world;
    const { w } = f;
    const explain = () => f.output();
    const seen = new Set<number>();
    const nextAttempt = () =>
      waitFor(
        'an attempt waiting on approval',
        () => {
          const pending = awaitingApproval(f);
          return pending !== undefined && !seen.has(pending.id) ? pending : undefined;
        },
        explain,
      );

    const first = await f.startApp(APP_ENV);
    expect((await f.send(first, 'issue_comment', f.mention(8, '@agent approver: write FAULTS.md'))).status).toBe(200);
    seen.add((await nextAttempt()).id);
    await sigkill(first);
    const second = await f.startApp(APP_ENV);
    seen.add((await nextAttempt()).id);
    await sigkill(second);
    const third = await f.startApp(APP_ENV);

    const checks = await waitFor(
      'both attempts concluded',
      () => {
        const all = w.gh.state.checkRuns(w.repo);
        return all.length === 2 && all.every((c) => c.status === 'completed') ? all : undefined;
      },
      explain,
    );
    expect(checks.map((c) => c.conclusion)).toEqual(['neutral', 'failure']);
    expect(checks[1]?.output?.summary).toContain('no retry left');
    await waitFor(
      'the tracking comment to say the run failed',
      () =>
        w.gh.state
          .comments(w.repo, 8)
          .some((c) => c.body.startsWith('<!-- agent-mux:run:') && c.body.includes('run failed'))
          ? true
          : undefined,
      explain,
      10_000,
    );

    await third.stop();
    const store = createSqliteRunStore({ file: join(f.root, 'data', 'agent-mux.db') });
    try {
      const runs = await store.list();
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ state: 'failed', attempts: 1 });
      expect(runs[0]?.reason).toContain('no retry left');
      expect(await store.pendingApprovals({ runId: runs[0]!.id })).toEqual([]);
      // Two agents started, none after the failure.
      expect((await f.agentEvents()).filter((e) => e.what === 'start')).toHaveLength(2);
    } finally {
      await store.close();
    }
    w.gh.assertNoViolations();
  }, 120_000);
});
