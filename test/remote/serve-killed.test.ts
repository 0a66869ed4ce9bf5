import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpAdapter } from '../../src/adapters/protocols/http/http-adapter.ts';
import { exposureWarnings } from '../../src/cli/commands/serve-command.ts';
import { startRun } from '../../src/core/run/start-run.ts';
import { isAlive as alive } from '../support/process-alive.ts';
import { client, readSse } from './sse-client.ts';

const CLI = resolve(import.meta.dirname, '../../src/cli/index.ts');
/**
 * An agent that starts a grandchild in a session of its own, reports both pids and waits forever.
 * Its interval (1013 ms) is no other test's: tests run side by side, and only this one's processes
 * are counted by their command line.
 */
const AGENT = `
const { spawn } = require('node:child_process');
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1013)'], { detached: true, stdio: 'ignore' });
process.stdout.write(JSON.stringify({ type: 'progress', summary: 'pids:' + process.pid + ',' + child.pid }) + '\\n');
setInterval(() => {}, 1013);
`;

const bwrapWorks = (() => {
  try {
    execFileSync('bwrap', ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** How many processes of AGENT (and its grandchild) run on this machine. */
function agentsRunning(): number {
  try {
    return Number(
      execFileSync('pgrep', ['-fc', 'setInterval\\(\\(\\) => \\{\\}, 1013\\)'], { encoding: 'utf8' }).trim(),
    );
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

const dirs: string[] = [];
const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An agents file serving AGENT as the process adapter `stubborn`. */
function stubbornConfig(root: string): string {
  const config = join(root, 'agents.json');
  const stubborn = { type: 'process', binary: process.execPath, args: ['-e', AGENT], protocol: 'json-lines' };
  writeFileSync(config, JSON.stringify({ adapters: { stubborn } }));
  return config;
}

function startServe(root: string, config: string) {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'serve',
      '--config',
      config,
      '--adapter',
      'stubborn',
      '--port',
      '0',
      '--insecure-no-auth',
      '--workspace',
      root,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_NO_WARNINGS: '1' } },
  );
  if (child.pid) pids.push(child.pid);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  return { child, output: () => out };
}

describe('agent-mux serve killed with SIGKILL', () => {
  it.runIf(bwrapWorks)(
    'takes its agents (and what they started in a session of their own) with it; the next start sweeps the workspace',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'agent-mux-serve-killed-'));
      dirs.push(root);
      const config = stubbornConfig(root);
      const root2 = join(root, 'work');
      const first = startServe(root2, config);
      await vi.waitFor(() => expect(first.output()).toMatch(/http:\/\/127\.0\.0\.1:\d+/), { timeout: 20_000 });
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(first.output())?.[1] as string;
      const api = client(url);
      const created = await api.create();
      expect(created.status).toBe(201);
      const { sessionId } = (await created.json()) as { sessionId: string };
      let agentPids: number[] = [];
      const abort = new AbortController();
      for await (const item of readSse(await api.events(sessionId, abort.signal))) {
        const summary = (item.data as { summary?: string }).summary ?? '';
        if (summary.startsWith('pids:')) {
          agentPids = summary.slice(5).split(',').map(Number);
          break;
        }
      }
      abort.abort();
      // Pids inside the PID namespace are not ours to check: find the real ones by their command line.
      const real = execFileSync('pgrep', ['-f', 'setInterval\\(\\(\\) => \\{\\}, 1013\\)'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map(Number)
        .filter((pid) => pid !== process.pid);
      expect(agentPids).toHaveLength(2);
      expect(real.length).toBeGreaterThanOrEqual(2);
      expect(readdirSync(root2).filter((n) => n.startsWith('agent-mux-remote-'))).toHaveLength(1);

      first.child.kill('SIGKILL');
      await vi.waitFor(() => expect(real.filter(alive)).toEqual([]), { timeout: 10_000 });

      const second = startServe(root2, config);
      await vi.waitFor(() => expect(second.output()).toMatch(/http:\/\/127\.0\.0\.1:\d+/), { timeout: 20_000 });
      expect(readdirSync(root2).filter((n) => n.startsWith('agent-mux-remote-'))).toEqual([]);
      second.child.kill('SIGTERM');
      expect(existsSync(root2)).toBe(true);
    },
    60_000,
  );

  it.runIf(bwrapWorks)(
    'the caller’s run fails fast with “the remote host … became unreachable”, and no agent is left',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'agent-mux-serve-killed-caller-'));
      dirs.push(root);
      const config = stubbornConfig(root);
      const serve = startServe(join(root, 'work'), config);
      await vi.waitFor(() => expect(serve.output()).toMatch(/http:\/\/127\.0\.0\.1:\d+/), { timeout: 20_000 });
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(serve.output())?.[1] as string;
      const handle = startRun({
        adapter: httpAdapter('gpu', {
          type: 'http',
          baseUrl: url,
          auth: { type: 'none' },
          protocol: 'ca-http-v1',
          maxConcurrentSessions: 1,
        }),
        request: { prompt: 'work', cwd: root },
        graceMs: 500,
      });
      for await (const event of handle.events) {
        if (event.type === 'progress' && String(event.summary).startsWith('pids:')) break;
      }
      const started = Date.now();
      serve.child.kill('SIGKILL');
      const end = await handle.result;
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(end.reason).not.toBe('completed');
      expect(end.message).toMatch(/the remote host 127\.0\.0\.1:\d+ became unreachable mid-run/);
      await vi.waitFor(() => expect(agentsRunning()).toBe(0), { timeout: 10_000 });
    },
    60_000,
  );

  it('warns when a token travels over plain HTTP or anyone is let in, off the loopback', () => {
    expect(exposureWarnings('127.0.0.1', { type: 'none' })).toEqual([]);
    expect(exposureWarnings('0.0.0.0', { type: 'bearer', token: 't' })[0]).toMatch(/plain HTTP/);
    expect(exposureWarnings('0.0.0.0', { type: 'none' })[0]).toMatch(/accepts anyone/);
    expect(exposureWarnings('0.0.0.0', { type: 'mtls', certPath: 'c', keyPath: 'k', caPath: 'a' })).toEqual([]);
  });
});
