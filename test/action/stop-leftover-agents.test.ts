import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { agentMarker, RUN_MARKER_ENV, stopLeftoverAgents } from '../../src/action/stop-leftover-agents.ts';
import { isAlive } from '../support/process-alive.ts';

// Issue 33.8: the jobs of one workflow run (a matrix) share GITHUB_RUN_ID and, on a self-hosted
// runner, the machine. One job's post step kills its own agents only.

describe('stopLeftoverAgents', () => {
  it("kills the step's own agents, not another job's of the same workflow run", async () => {
    const runId = `gha-${process.pid}-1`;
    const mine = agentMarker(runId, 'test (node 22)', 'a');
    const theirs = agentMarker(runId, 'test (node 24)', 'b');
    const start = (marker: string) =>
      spawn('sleep', ['30'], { env: { PATH: process.env.PATH, [RUN_MARKER_ENV]: marker }, stdio: 'ignore' });
    const a = start(mine);
    const b = start(theirs);
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      expect(await stopLeftoverAgents(mine)).toEqual([a.pid]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(isAlive(b.pid ?? -1)).toBe(true);
      // A test finds every agent of the run by the run id's prefix.
      expect(await stopLeftoverAgents(`${runId}/`, 0 as unknown as NodeJS.Signals, { prefix: true })).toEqual([b.pid]);
    } finally {
      a.kill('SIGKILL');
      b.kill('SIGKILL');
    }
  });
});
