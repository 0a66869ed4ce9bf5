import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type GenericCliAdapter,
  genericCliAdapter,
} from '../../../../src/adapters/protocols/generic-cli/generic-cli-adapter.ts';
import { genericCliAdapterConfigSchema } from '../../../../src/core/config/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import type { RunOptions } from '../../../../src/core/run/run-options.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun, processAlive } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-generic-cli-'));
const node = process.execPath;
const config = (input: Record<string, unknown>) =>
  genericCliAdapterConfigSchema.parse({ type: 'generic-cli', ...input });
const run = (adapter: GenericCliAdapter, prompt: string, options: Partial<RunOptions> = {}) =>
  collectRun(startRun({ adapter, request: { prompt, cwd }, graceMs: 500, ...options }));
const text = (events: AgentEvent[]) =>
  events
    .filter((e) => e.type === 'text_delta')
    .map((e) => (e.type === 'text_delta' ? e.delta : ''))
    .join('');

describe('generic-cli, per-session', () => {
  it('declares the capabilities of its profile', () => {
    const adapter = genericCliAdapter('cli', config({ command: 'cat' }));
    expect(adapter.capabilities).toMatchObject({
      nativeSessionIds: false,
      turnCompletion: false,
      resume: false,
      execModel: 'interactive',
    });
    expect(adapter.launch.kind).toBe('process');
  });

  it('writes the prompt as a line to stdin and streams stdout as text, stderr as log', async () => {
    const adapter = genericCliAdapter(
      'cli',
      config({
        command: 'sh',
        args: ['-c', 'read line; echo "you said: $line"; echo "in $PWD as $MODE" ; echo warning >&2'],
        env: { MODE: 'chat' },
      }),
    );
    const { events, end } = await run(adapter, 'hello there');
    expectWellFormedStream(events, 'cli');
    expect(end.reason).toBe('completed');
    expect(text(events)).toBe(`you said: hello there\nin ${cwd} as chat\n`);
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: text(events) });
    expect(events).toContainEqual(expect.objectContaining({ type: 'log', source: 'stderr', line: 'warning' }));
  });

  it('runs in work_dir when one is set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-work-dir-'));
    const adapter = genericCliAdapter('cli', config({ command: 'pwd', work_dir: dir }));
    const { events } = await run(adapter, 'x');
    expect(text(events)).toBe(`${dir}\n`);
  });

  it('keeps stdin open: an interactive program runs until it exits or the run is stopped', async () => {
    const adapter = genericCliAdapter('cli', config({ command: 'cat' }));
    const { events, end } = await run(adapter, 'ping', { timeoutMs: 500 });
    expectWellFormedStream(events, 'cli');
    expect(text(events)).toBe('ping\n');
    expect(end.reason).toBe('timeout');
  });
});

describe('generic-cli, persistent', () => {
  const adapters: GenericCliAdapter[] = [];
  const persistent = (quietMs = 300) => {
    const adapter = genericCliAdapter(
      'repl',
      config({ command: node, args: [fixtureBin('line-repl.mjs')], spawn_policy: 'persistent' }),
      { quietMs, graceMs: 300 },
    );
    adapters.push(adapter);
    return adapter;
  };
  afterAll(async () => {
    for (const adapter of adapters) await adapter.dispose();
  });

  it('is a session adapter that remembers in memory', () => {
    const adapter = persistent();
    expect(adapter.launch.kind).toBe('session');
    expect(adapter.capabilities).toMatchObject({ sessionPersistence: 'memory', turnCompletion: false });
  });

  it('keeps one process across runs; each run takes only its own answer', async () => {
    const adapter = persistent();
    const first = await run(adapter, 'first question');
    expectWellFormedStream(first.events, 'repl');
    expect(first.end.reason).toBe('completed');
    const pid = adapter.pid;
    expect(pid).toBeTypeOf('number');
    expect(text(first.events)).toBe(`repl ready\nyou said: first question\n(${pid}) done with: first question\n`);
    expect(first.events).toContainEqual(expect.objectContaining({ type: 'log', line: 'heard 14 chars' }));

    const second = await run(adapter, 'second');
    expectWellFormedStream(second.events, 'repl');
    expect(second.end.reason).toBe('completed');
    expect(adapter.pid).toBe(pid);
    expect(text(second.events)).toBe(`you said: second\n(${pid}) done with: second\n`);
  });

  it('serializes concurrent runs into turns', async () => {
    const adapter = persistent();
    const [a, b] = await Promise.all([run(adapter, 'alpha'), run(adapter, 'beta')]);
    expect(text(a.events)).toContain('you said: alpha');
    expect(text(a.events)).not.toContain('beta');
    expect(text(b.events)).toBe(`you said: beta\n(${adapter.pid}) done with: beta\n`);
  });

  it('gives a freshly started program its start-up window before the quiet window applies', async () => {
    const adapter = genericCliAdapter(
      'repl',
      config({
        command: node,
        args: [fixtureBin('line-repl.mjs')],
        spawn_policy: 'persistent',
        env: { LINE_REPL_STARTUP_MS: '800' },
      }),
      { quietMs: 200, graceMs: 300 },
    );
    adapters.push(adapter);
    const first = await run(adapter, 'slow start');
    expect(first.end.reason).toBe('completed');
    expect(text(first.events)).toBe(`repl ready\nyou said: slow start\n(${adapter.pid}) done with: slow start\n`);
    const started = Date.now();
    const quiet = await run(adapter, 'quiet');
    expect(quiet.end.reason).toBe('completed');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('ends a turn without output after the quiet window', async () => {
    const adapter = persistent(200);
    await run(adapter, 'warm up');
    const started = Date.now();
    const { events, end } = await run(adapter, 'quiet');
    expect(end.reason).toBe('completed');
    expect(events.some((e) => e.type === 'text_delta')).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('ends the run crashed when the program dies in its turn, and starts it again for the next run', async () => {
    const adapter = persistent();
    await run(adapter, 'hello');
    const pid = adapter.pid!;
    const died = await run(adapter, 'exit 7');
    expectWellFormedStream(died.events, 'repl');
    expect(died.end).toMatchObject({ reason: 'crashed', message: `${node} exited with code 7` });
    expect(died.events.filter((e) => e.type === 'crash')).toHaveLength(1);
    const crash = died.events.find((e) => e.type === 'crash');
    expect(crash).toMatchObject({ exitCode: 7 });
    expect(crash?.type === 'crash' && crash.stderr).toContain('exiting with 7');
    expect(processAlive(pid)).toBe(false);

    const again = await run(adapter, 'pid');
    expect(again.end.reason).toBe('completed');
    expect(adapter.pid).not.toBe(pid);
    expect(text(again.events)).toContain(`pid ${adapter.pid}`);
  });

  it('kills the program when a run is aborted; the next run starts a fresh one', async () => {
    const adapter = persistent(1000);
    await run(adapter, 'hello');
    const pid = adapter.pid!;
    const handle = startRun({ adapter, request: { prompt: 'quiet', cwd }, graceMs: 500 });
    const collected = collectRun(handle);
    setTimeout(() => handle.abort('enough'), 100);
    const { events, end } = await collected;
    expectWellFormedStream(events, 'repl');
    expect(end).toMatchObject({ reason: 'aborted', message: 'enough' });
    expect(processAlive(pid)).toBe(false);
    const next = await run(adapter, 'pid');
    expect(text(next.events)).toContain(`pid ${adapter.pid}`);
    expect(adapter.pid).not.toBe(pid);
  });

  it('holds the run timeout', async () => {
    const adapter = persistent(5000);
    const { end } = await run(adapter, 'quiet', { timeoutMs: 300 });
    expect(end.reason).toBe('timeout');
  });

  it('dispose() kills the process group; later runs fail', async () => {
    const adapter = persistent();
    await run(adapter, 'hello');
    const pid = adapter.pid!;
    expect(processAlive(pid)).toBe(true);
    await adapter.dispose();
    expect(processAlive(pid)).toBe(false);
    const after = await run(adapter, 'hello');
    expect(after.end.reason).toBe('failed');
    expect(after.end.message).toContain('disposed');
  });

  it('reports a program that cannot be started as a failed run', async () => {
    const adapter = genericCliAdapter('repl', config({ command: '/nonexistent/cli', spawn_policy: 'persistent' }));
    const { events, end } = await run(adapter, 'x');
    expectWellFormedStream(events, 'repl');
    expect(end.reason).toBe('failed');
    expect(events.some((e) => e.type === 'error' && e.code === 'spawn_failed')).toBe(true);
  });
});
