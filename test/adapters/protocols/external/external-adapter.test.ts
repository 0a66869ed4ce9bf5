import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ExternalAdapter, externalAdapter } from '../../../../src/adapters/protocols/external/external-adapter.ts';
import { externalAdapterConfigSchema } from '../../../../src/core/config/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import type { RunOptions } from '../../../../src/core/run/run-options.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { autoApprovalChannel, createMemoryApprovalChannel } from '../../../../src/core/tools/index.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun, processAlive } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-external-'));
const approve = autoApprovalChannel('approve');
const adapters: ExternalAdapter[] = [];
const external = (args: string[] = [fixtureBin('external-echo.mjs')]) => {
  const adapter = externalAdapter(
    'ext',
    externalAdapterConfigSchema.parse({ type: 'external', command: process.execPath, args }),
    { graceMs: 300 },
  );
  adapters.push(adapter);
  return adapter;
};
const run = (adapter: ExternalAdapter, prompt: string, options: Partial<RunOptions> = {}) =>
  collectRun(startRun({ adapter, request: { prompt, cwd }, graceMs: 500, approvals: approve, ...options }));
const text = (events: AgentEvent[]) =>
  events
    .filter((e) => e.type === 'text_delta')
    .map((e) => (e.type === 'text_delta' ? e.delta : ''))
    .join('');
const sessionOf = (events: AgentEvent[]) => {
  const start = events.find((e) => e.type === 'session_start');
  return start?.type === 'session_start' ? start.sessionId : '';
};

afterAll(async () => {
  for (const adapter of adapters) await adapter.dispose();
});

describe('external adapter', () => {
  it('declares the capabilities of its profile and is a session adapter', () => {
    const adapter = external();
    expect(adapter.capabilities).toMatchObject({
      nativeSessionIds: false,
      turnCompletion: true,
      resume: false,
      execModel: 'interactive',
      approvals: 'native',
    });
    expect(adapter.launch.kind).toBe('session');
    expect(adapter.pid).toBeUndefined();
  });

  it('serves three sessions at once over one process, each run seeing only its own output and approval', async () => {
    const adapter = external();
    const always = createMemoryApprovalChannel({
      onRequest: (request) =>
        queueMicrotask(() => always.resolve(request.approvalId, { kind: 'approve', scope: 'always', by: 'reviewer' })),
    });
    const order: string[] = [];
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'text_delta') order.push(event.runId);
    };
    const prompts = ['apples are red', 'bananas are yellow', 'cherries are dark'];
    const channels = [approve, autoApprovalChannel('deny'), always];
    const results = await Promise.all(
      prompts.map((prompt, i) => run(adapter, prompt, { runId: `run-${i}`, approvals: channels[i], onEvent })),
    );
    const pids = new Set<number | undefined>([adapter.pid]);
    expect(adapter.pid).toBeTypeOf('number');

    const sessions = results.map((r) => sessionOf(r.events));
    expect(new Set(sessions).size).toBe(3);
    for (const [i, { events, end }] of results.entries()) {
      expectWellFormedStream(events, 'ext');
      expect(end.reason).toBe('completed');
      const verdict = i === 1 ? 'denied' : 'approved';
      expect(text(events)).toBe(`echo[${sessions[i]}]: ${prompts[i]}\npermission ${verdict}\n`);
      for (const [j, other] of prompts.entries()) if (j !== i) expect(JSON.stringify(events)).not.toContain(other);
      const request = events.find((e) => e.type === 'approval_request');
      expect(request).toMatchObject({
        toolName: 'write_file',
        input: { tool: 'write_file', resource: `/tmp/${sessions[i]}.txt` },
      });
      expect(events.find((e) => e.type === 'message_stop')).toMatchObject({ text: text(events) });
      expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ stopReason: 'turn.complete' });
    }
    expect(results[0]!.events).toContainEqual(expect.objectContaining({ type: 'approval_granted', scope: 'once' }));
    expect(results[1]!.events).toContainEqual(expect.objectContaining({ type: 'approval_denied' }));
    expect(results[2]!.events).toContainEqual(
      expect.objectContaining({ type: 'approval_granted', scope: 'always', by: 'reviewer' }),
    );
    // The three runs' text interleaved in time.
    const switches = order.filter((id, i) => i > 0 && id !== order[i - 1]).length;
    expect(switches).toBeGreaterThan(2);

    // The process outlives its runs and serves the next one.
    const next = await run(adapter, 'pid');
    expect(text(next.events)).toContain(`pid ${adapter.pid}`);
    pids.add(adapter.pid);
    expect(pids.size).toBe(1);
  });

  it('denies permission requests when the run has no approval channel', async () => {
    const adapter = external();
    const { events, end } = await run(adapter, 'hello', { approvals: undefined });
    expect(end.reason).toBe('completed');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'approval_denied', reason: 'no approval channel is configured for this run' }),
    );
    expect(text(events)).toContain('permission denied');
  });

  it('turns file.output into file_output and stderr-channel output into logs', async () => {
    const adapter = external();
    const file = await run(adapter, 'file:report.csv');
    expect(file.events).toContainEqual(
      expect.objectContaining({
        type: 'file_output',
        fileName: 'report.csv',
        path: '/tmp/report.csv',
        mimeType: 'text/plain',
      }),
    );
    const stderr = await run(adapter, 'stderr:a warning');
    expect(stderr.events).toContainEqual(expect.objectContaining({ type: 'log', source: 'stderr', line: 'a warning' }));
    expect(text(stderr.events)).toBe('permission approved\n');
  });

  it('hands the run request files to the adapter as file.input before the user input', async () => {
    const adapter = external();
    const { events, end } = await collectRun(
      startRun({
        adapter,
        request: {
          prompt: 'look at these',
          cwd,
          files: [{ name: 'data.csv', path: '/tmp/data.csv', mimeType: 'text/csv' }],
        },
        graceMs: 500,
        approvals: approve,
      }),
    );
    expect(end.reason).toBe('completed');
    expect(text(events).startsWith('got file data.csv\n')).toBe(true);
  });

  it('survives malformed lines: every open session hears an error, and all complete', async () => {
    const adapter = external();
    const [dirty, bystander] = await Promise.all([run(adapter, 'garbage'), run(adapter, 'innocent')]);
    for (const { events, end } of [dirty, bystander]) {
      expectWellFormedStream(events, 'ext');
      expect(end.reason).toBe('completed');
    }
    const errors = (events: AgentEvent[]) => events.filter((e) => e.type === 'error' && e.code === 'malformed_record');
    // Broken JSON, a non-object, a message without session_id: broadcast. The invalid message naming
    // the dirty session: that session only. Plain text and binary junk are not JSON: stdout logs.
    expect(errors(dirty.events).length).toBe(4);
    expect(errors(bystander.events).length).toBe(3);
    expect(bystander.events).toContainEqual(
      expect.objectContaining({ type: 'log', source: 'stdout', line: 'plain text the adapter printed by mistake' }),
    );
    expect(text(bystander.events)).not.toContain('garbage');
  });

  it('reports unknown message types as debug events in debug mode', async () => {
    const adapter = external();
    const { events } = await run(adapter, 'garbage', { debug: true });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'debug', message: 'unknown external adapter message type "no.such.type"' }),
    );
  });

  it('ends every open session crashed when the process crashes, with its stderr tail; the next run respawns it', async () => {
    const adapter = external();
    const hanging = [run(adapter, 'hang'), run(adapter, 'hang')];
    await new Promise((resolve) => setTimeout(resolve, 200));
    const pid = adapter.pid!;
    const crashed = await run(adapter, 'crash');
    const results = [crashed, ...(await Promise.all(hanging))];
    for (const { events, end } of results) {
      expectWellFormedStream(events, 'ext');
      expect(end.reason).toBe('crashed');
      expect(end.message).toBe('the external adapter process exited with code 3');
      expect(events.filter((e) => e.type === 'crash')).toHaveLength(1);
      const crash = events.find((e) => e.type === 'crash');
      expect(crash).toMatchObject({ exitCode: 3 });
      expect(crash?.type === 'crash' && crash.stderr).toContain(
        'fatal: the external adapter lost its model connection',
      );
    }
    expect(processAlive(pid)).toBe(false);
    const next = await run(adapter, 'pid');
    expect(next.end.reason).toBe('completed');
    expect(adapter.pid).not.toBe(pid);
    expect(text(next.events)).toContain(`pid ${adapter.pid}`);
  });

  it('retries a session whose process crashed, under a retry policy for crashed runs', async () => {
    const adapter = external();
    const retry = { attempts: 2, backoffMs: 0, maxBackoffMs: 0, jitter: 0, retryOn: ['crashed'] as const };
    const { events, end } = await run(adapter, 'crash', { retry });
    expectWellFormedStream(events, 'ext');
    expect(end).toMatchObject({ reason: 'crashed', attempts: 2 });
    expect(events.filter((e) => e.type === 'crash')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'session_start')).toHaveLength(2);
  });

  it('stops a session with stop then session.close, leaving the process and other sessions alone', async () => {
    const adapter = external();
    const other = run(adapter, 'hello');
    const handle = startRun({ adapter, request: { prompt: 'hang', cwd }, graceMs: 500, approvals: approve });
    const collected = collectRun(handle);
    await new Promise((resolve) => setTimeout(resolve, 200));
    handle.abort('no more');
    const { events, end } = await collected;
    expectWellFormedStream(events, 'ext');
    expect(end).toMatchObject({ reason: 'aborted', message: 'no more' });
    expect(text(events)).not.toContain('(stopped)');
    expect((await other).end.reason).toBe('completed');
    expect(adapter.pid).toBeTypeOf('number');
  });

  it('holds the run timeout on a session that never completes', async () => {
    const adapter = external();
    const { end } = await run(adapter, 'hang', { timeoutMs: 300 });
    expect(end.reason).toBe('timeout');
  });

  it('dispose() fails open sessions and kills the process group', async () => {
    const adapter = external();
    const hanging = run(adapter, 'hang');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const pid = adapter.pid!;
    await adapter.dispose();
    expect(processAlive(pid)).toBe(false);
    const { events, end } = await hanging;
    expectWellFormedStream(events, 'ext');
    expect(end.reason).toBe('failed');
    expect(end.message).toContain('disposed');
    expect(events.some((e) => e.type === 'crash')).toBe(false);
    const after = await run(adapter, 'hello');
    expect(after.end.reason).toBe('failed');
    expect(after.end.message).toContain('disposed');
  });

  it('reports an adapter program that cannot be started as a failed run', async () => {
    const adapter = externalAdapter(
      'ext',
      externalAdapterConfigSchema.parse({ type: 'external', command: '/nonexistent/adapter' }),
    );
    const { events, end } = await run(adapter, 'x');
    expectWellFormedStream(events, 'ext');
    expect(end.reason).toBe('failed');
    expect(events).toContainEqual(expect.objectContaining({ type: 'error', code: 'spawn_failed' }));
  });
});
