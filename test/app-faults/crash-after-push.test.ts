/**
 * kill -9 between the push and the pull request: the real `probot run` SIGKILLs itself right after
 * it pushed the run's commit (`AGENT_MUX_TEST_CRASH_AT=after-push`). The app that takes the run over
 * finds the commit on the run's branch by its `Agent-Mux-Run` trailer and publishes it: one pull
 * request from that branch, the agent started once, nothing left in progress.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { runTrailer } from '../../src/github/git/find-run-commit.ts';
import {
  APPROVAL_AGENT,
  awaitingApproval,
  checkName,
  createFaultWorld,
  type FaultWorld,
  processAgent,
  waitFor,
} from './fault-world.ts';

const CONFIG = `
agents:
${processAgent('approver', APPROVAL_AGENT)}approvals:
  users: []
  permission: maintain
  timeout: 120s
`;

const APP_ENV = { AGENT_MUX_LEASE_SECONDS: '2', AGENT_MUX_WORKERS: '1', AGENT_MUX_GITHUB_THROTTLE: 'off' };

let world: FaultWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("an app SIGKILLed right after it pushed the run's commit", () => {
  it('is taken over by a new app that publishes the pushed commit without running the agent again', async () => {
    world = await createFaultWorld(CONFIG);
    const f = world;
    const { w } = f;
    const explain = () => `${f.output()}\n--- check runs ---\n${JSON.stringify(w.gh.state.checkRuns(w.repo), null, 1)}`;

    const first = await f.startApp({ ...APP_ENV, AGENT_MUX_TEST_CRASH_AT: 'after-push' });
    expect((await f.send(first, 'issue_comment', f.mention(9, '@agent approver: write FAULTS.md'))).status).toBe(200);
    const asked = await waitFor('the approval', () => awaitingApproval(f), explain);
    expect((await f.send(first, 'check_run', f.buttonPress(asked, asked.approve, 'bob'))).status).toBe(200);
    await waitFor(
      'the app to kill itself after the push',
      () => (first.child.signalCode === 'SIGKILL' ? true : undefined),
      explain,
      30_000,
    );
    const branches = (await w.git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], w.bare)).split('\n');
    const pushed = branches.filter((b) => b !== 'main');
    expect(pushed).toHaveLength(1);
    expect(w.gh.state.pulls(w.repo)).toEqual([]);
    expect(w.gh.state.checkRun(asked.id)?.status).toBe('in_progress');

    const second = await f.startApp(APP_ENV);
    const done = await waitFor(
      'the run to be concluded by the second app',
      () => {
        const checks = w.gh.state.checkRuns(w.repo);
        return checks.length === 2 && checks.every((c) => c.status === 'completed') ? checks : undefined;
      },
      explain,
      60_000,
    );
    expect(done.map((c) => [c.name, c.conclusion])).toEqual([
      [checkName('approver'), 'neutral'],
      [checkName('approver'), 'success'],
    ]);
    expect(JSON.stringify(done[1]?.output)).toContain('was not run again');

    // One pull request, from the branch the first app pushed; no second branch.
    const pulls = w.gh.state.pulls(w.repo);
    expect(pulls.map((p) => p.headRef)).toEqual(pushed);
    const after = (await w.git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], w.bare)).split('\n');
    expect(after.sort()).toEqual(branches.sort());
    const message = await w.git(['log', '-1', '--format=%B', `refs/heads/${pushed[0]}`], w.bare);
    expect(await w.git(['show', `refs/heads/${pushed[0]}:FAULTS.md`], w.bare)).toBe('fault tolerant');

    await second.stop();
    const store = createSqliteRunStore({ file: join(f.root, 'data', 'agent-mux.db') });
    try {
      const [run, ...others] = await store.list();
      expect(others).toEqual([]);
      expect(run).toMatchObject({ state: 'succeeded', conclusion: 'success', attempts: 1 });
      expect(message).toContain(runTrailer(run!.id));
      // The agent ran once: the second app published the first attempt's commit.
      expect((await f.agentEvents()).filter((e) => e.what === 'start')).toHaveLength(1);
    } finally {
      await store.close();
    }
    w.gh.assertNoViolations();
  }, 120_000);
});
