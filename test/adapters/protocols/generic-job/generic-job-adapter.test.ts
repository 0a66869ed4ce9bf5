import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genericJobAdapter } from '../../../../src/adapters/protocols/generic-job/generic-job-adapter.ts';
import type { Adapter } from '../../../../src/core/adapter/index.ts';
import { genericJobAdapterConfigSchema } from '../../../../src/core/config/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import type { RunOptions } from '../../../../src/core/run/run-options.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun, processAlive } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-generic-job-'));
const node = process.execPath;
const job = (input: Record<string, unknown>) =>
  genericJobAdapter('job', genericJobAdapterConfigSchema.parse({ type: 'generic-job', ...input }));
const run = (adapter: Adapter, prompt: string, options: Partial<RunOptions> = {}) =>
  collectRun(startRun({ adapter, request: { prompt, cwd }, graceMs: 500, ...options }));
const text = (events: AgentEvent[]) =>
  events
    .filter((e) => e.type === 'text_delta')
    .map((e) => (e.type === 'text_delta' ? e.delta : ''))
    .join('');

describe('generic-job', () => {
  it('declares the capabilities of its profile', () => {
    expect(job({ command: 'cat' }).capabilities).toMatchObject({
      nativeSessionIds: false,
      turnCompletion: true,
      resume: false,
      execModel: 'run-to-completion',
    });
  });

  it('passes the prompt on stdin, closes it, and streams the output line by line with the whole text at the end', async () => {
    const adapter = job({ command: 'sh', args: ['-c', 'tr a-z A-Z; echo "done in $PWD"; echo note >&2'] });
    const { events, end } = await run(adapter, 'make this loud\nand this');
    expectWellFormedStream(events, 'job');
    expect(end).toMatchObject({ reason: 'completed', exitCode: 0 });
    const expected = `MAKE THIS LOUD\nAND THIS\ndone in ${cwd}\n`;
    expect(text(events)).toBe(expected);
    expect(events.filter((e) => e.type === 'text_delta')).toHaveLength(3);
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: expected });
    expect(events).toContainEqual(expect.objectContaining({ type: 'log', source: 'stderr', line: 'note' }));
  });

  it('streams lines as they come, before the job ends', async () => {
    const adapter = job({ command: 'sh', args: ['-c', 'echo first; sleep 0.4; echo second'] });
    const times: Record<string, number> = {};
    await run(adapter, '', {
      onEvent: (e) => {
        if (e.type === 'text_delta') times[e.delta] = e.timestamp;
        if (e.type === 'run_end') times.end = e.timestamp;
      },
    });
    expect(times.end! - times['first\n']!).toBeGreaterThanOrEqual(300);
  });

  it('uses work_dir and env', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-job-dir-'));
    const adapter = job({
      command: 'sh',
      args: ['-c', 'echo "$PWD $JOB_MODE"'],
      work_dir: dir,
      env: { JOB_MODE: 'batch' },
    });
    const { events } = await run(adapter, '');
    expect(text(events)).toBe(`${dir} batch\n`);
  });

  it('turns a non-zero exit into a crash with the stderr tail', async () => {
    const adapter = job({ command: 'sh', args: ['-c', 'echo partial; echo "it broke" >&2; exit 4'] });
    const { events, end } = await run(adapter, '');
    expectWellFormedStream(events, 'job');
    expect(end).toMatchObject({ reason: 'crashed', exitCode: 4 });
    expect(events.find((e) => e.type === 'crash')).toMatchObject({ exitCode: 4, stderr: 'it broke' });
  });

  it('kills the job and its whole group after max_runtime; the run ends timeout', async () => {
    const pidsFile = join(cwd, `pids-${Date.now()}.json`);
    // Long enough for the job to start its two grandchildren and write their pids on a loaded machine
    // (400 ms once ended it before it had, in CI).
    const adapter = job({ command: node, args: [fixtureBin('fork-grandchildren.mjs')], max_runtime: '2000ms' });
    const started = Date.now();
    const { events, end } = await collectRun(
      startRun({ adapter, request: { prompt: 'x', cwd, env: { PIDS_FILE: pidsFile } }, graceMs: 500 }),
    );
    expectWellFormedStream(events, 'job');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(end.reason).toBe('timeout');
    expect(end.message).toContain('2000 ms limit');
    expect(events.filter((e) => e.type === 'error' && e.code === 'timeout')).toHaveLength(1);
    expect(events.some((e) => e.type === 'crash')).toBe(false);
    const pids: number[] = JSON.parse(readFileSync(pidsFile, 'utf8'));
    expect(pids).toHaveLength(3);
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it('SIGKILLs a job that ignores SIGTERM at max_runtime, after the grace window', async () => {
    // A shell that ignores SIGTERM before it prints a byte (an ignored signal stays ignored across exec):
    // Node's start-up can outlast 300 ms on a loaded machine, and a SIGTERM before its handler is in
    // place would still kill it (CI saw 'SIGTERM' here once).
    const adapter = job({
      command: 'sh',
      args: ['-c', "trap '' TERM; echo started; exec sleep 30"],
      max_runtime: '300ms',
    });
    const started = Date.now();
    const { events, end } = await run(adapter, 'x');
    expectWellFormedStream(events, 'job');
    expect(end.reason).toBe('timeout');
    expect(end.signal).toBe('SIGKILL');
    expect(events).toContainEqual(expect.objectContaining({ type: 'error', code: 'timeout' }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(300 + 500);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('keeps the output the job printed before max_runtime', async () => {
    const adapter = job({ command: 'sh', args: ['-c', 'echo started; sleep 30'], max_runtime: '300ms' });
    const { events, end } = await run(adapter, '');
    expectWellFormedStream(events, 'job');
    expect(end.reason).toBe('timeout');
    expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: 'started\n' });
  });

  it('lets the run timeout come first when it is shorter', async () => {
    const adapter = job({ command: 'sleep', args: ['30'], max_runtime: '1m' });
    const { end } = await run(adapter, '', { timeoutMs: 300 });
    expect(end.reason).toBe('timeout');
  });

  it('aborts the job', async () => {
    const adapter = job({ command: 'sleep', args: ['30'] });
    const handle = startRun({ adapter, request: { prompt: '', cwd }, graceMs: 500 });
    const collected = collectRun(handle);
    setTimeout(() => handle.abort('stop it'), 200);
    const { events, end } = await collected;
    expectWellFormedStream(events, 'job');
    expect(end).toMatchObject({ reason: 'aborted', message: 'stop it' });
  });

  it('keeps the exit signal of a job killed from outside', async () => {
    const adapter = job({ command: 'sh', args: ['-c', 'kill -9 $$$$'] });
    const { end } = await run(adapter, '');
    expect(end).toMatchObject({ reason: 'crashed', signal: 'SIGKILL' });
  });

  it('reports a job program that is not installed as a crash naming it', async () => {
    const { events, end } = await run(job({ command: '/nonexistent/job' }), 'x');
    expectWellFormedStream(events, 'job');
    expect(end.reason).toBe('crashed');
    expect(events).toContainEqual(expect.objectContaining({ type: 'error', code: 'program_missing' }));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'crash', stderr: '/nonexistent/job is not installed or not on PATH' }),
    );
  });

  it('rejects a malformed max_runtime when built', () => {
    expect(() =>
      genericJobAdapter('job', {
        ...genericJobAdapterConfigSchema.parse({ type: 'generic-job', command: 'x' }),
        max_runtime: 'soon',
      }),
    ).toThrow(RangeError);
  });
});
