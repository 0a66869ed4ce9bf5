import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import type { FenceOptions } from '../../../src/core/sandbox/index.ts';
import { probeFence } from '../../../src/core/sandbox/index.ts';
import { escapeCarriers } from '../../support/process-alive.ts';

const BIN = resolve(import.meta.dirname, '../../fixtures/bin');
const ESCAPES = ['escape-setsid.sh', 'escape-double-fork.mjs', 'escape-detached-unref.mjs'];

async function runEscape(fixture: string, fence: FenceOptions | undefined, workspace: string) {
  const marker = randomUUID();
  const handle = startRun({
    adapter: processAdapter('escape', { binary: join(BIN, fixture) }),
    request: { prompt: 'escape', cwd: workspace },
    env: { PATH: process.env.PATH, ESCAPE_MARKER: marker },
    fence,
    graceMs: 500,
    terminalGraceMs: 300,
    checkVersion: false,
  });
  const end = await handle.result;
  // The escapee has had time to start (the fixtures wait 300 ms before they say done).
  await new Promise((done) => setTimeout(done, 300));
  const left = escapeCarriers(marker);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return { end, left };
}

let workspace: string;
let bwrapWorks = false;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'amux-fence-'));
  bwrapWorks = (await probeFence({ kind: 'processes' }, workspace)).ok;
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

describe('processes that escape the group', () => {
  it.each(ESCAPES)('%s leaves a process behind without a fence (the attack works)', async (fixture) => {
    const { left } = await runEscape(fixture, undefined, workspace);
    expect(left.length).toBeGreaterThan(0);
  });

  it.each(ESCAPES)('%s leaves nothing behind in the PID-namespace fence', async (fixture) => {
    expect(bwrapWorks, 'bwrap must work on this machine (apt-get install bubblewrap)').toBe(true);
    const { end, left } = await runEscape(fixture, { kind: 'processes' }, workspace);
    expect(end.reason).toBe('completed');
    expect(left).toEqual([]);
  });

  it.each(ESCAPES)('%s leaves nothing behind in the file-system fence', async (fixture) => {
    const { end, left } = await runEscape(fixture, { kind: 'filesystem', home: join(workspace, 'home') }, workspace);
    expect(end.reason).toBe('completed');
    expect(left).toEqual([]);
  });
});
