import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpAdapter } from '../../../../src/adapters/protocols/http/index.ts';
import type { HttpAdapterConfig } from '../../../../src/core/config/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import type { RunOptions } from '../../../../src/core/run/run-options.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { createMemoryApprovalChannel } from '../../../../src/core/tools/memory-approval-channel.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';
import { type StandInRemote, startStandInRemote } from './stand-in-remote.ts';

const remotes: StandInRemote[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((r) => r.close()));
});

async function standIn(options: Parameters<typeof startStandInRemote>[0]): Promise<StandInRemote> {
  const remote = await startStandInRemote(options);
  remotes.push(remote);
  return remote;
}

const config = (baseUrl: string, extra: Partial<HttpAdapterConfig> = {}): HttpAdapterConfig => ({
  type: 'http',
  baseUrl,
  auth: { type: 'none' },
  protocol: 'ca-http-v1',
  maxConcurrentSessions: 4,
  ...extra,
});

const workspace = () => mkdtempSync(join(tmpdir(), 'agent-mux-http-'));
const errors = (events: AgentEvent[], code: string) =>
  events.filter((e) => e.type === 'error' && e.code === code) as Extract<AgentEvent, { type: 'error' }>[];

/** No session left open on the remote, no socket left connected. */
async function expectClean(remote: StandInRemote): Promise<void> {
  await vi.waitFor(() => {
    expect(remote.openSessions).toBe(0);
    expect(remote.openSockets).toBe(0);
  });
}

const completeScript = (s: { send: (t: string, r: Record<string, unknown>) => void; end: () => void }) => {
  s.send('complete', { type: 'complete', output: { done: true } });
  s.end();
};

describe('http adapter (ca-http-v1 client)', () => {
  it('tells the remote its remaining budget with budget_update, and stops it when the budget is spent', async () => {
    const inputs: Record<string, unknown>[] = [];
    const remote = await standIn({
      script: async (s) => {
        s.send('progress', {
          type: 'progress',
          summary: 'one',
          cost: { model: 'x/y', inputTokens: 600, outputTokens: 100 },
        });
        inputs.push(await s.nextInput());
        s.send('progress', {
          type: 'progress',
          summary: 'two',
          cost: { model: 'x/y', inputTokens: 900, outputTokens: 200 },
        });
        inputs.push(await s.nextInput());
        inputs.push(await s.nextInput());
        s.send('failed', { type: 'failed', reason: 'budget_exceeded' });
        s.end();
      },
    });
    const { end } = await collectRun(
      startRun({
        adapter: httpAdapter('pi', config(remote.baseUrl)),
        request: { prompt: 'spend', cwd: workspace() },
        budget: { tokens: 1000 },
      }),
    );
    expect(end.reason).toBe('budget_exceeded');
    expect(inputs[0]).toEqual({ type: 'budget_update', remaining: { tokens: 300 } });
    expect(inputs[1]).toEqual({ type: 'budget_update', remaining: { tokens: -100 } });
    expect(inputs[2]).toEqual({ type: 'shutdown', reason: 'budget_exceeded' });
  });

  it('runs a session: tool calls through the run tool host with an ask approval, split frames, cost, DELETE', async () => {
    const cwd = workspace();
    const inputs: Record<string, unknown>[] = [];
    const remote = await standIn({
      script: async (s) => {
        s.raw(': ping\n\n');
        s.send('progress', {
          type: 'progress',
          summary: 'reading',
          cost: { model: 'x/y', inputTokens: 10, outputTokens: 5 },
        });
        s.send('tool_call', { type: 'tool_call', id: '1', tool: 'read_task', args: {} });
        inputs.push(await s.nextInput());
        s.send('tool_call', { type: 'tool_call', id: 2, tool: 'write_file', args: { path: 'out.txt', content: 'hi' } });
        inputs.push(await s.nextInput());
        // A frame split inside a multi-byte character, with multi-line data and a heartbeat between.
        const frame = Buffer.from('event: comment\ndata: {"type":"comment",\ndata: "text":"done ✓"}\n\n: ping\n\n');
        const cut = frame.indexOf(Buffer.from('✓')) + 1;
        s.raw(frame.subarray(0, 7));
        s.raw(frame.subarray(7, cut));
        s.raw(frame.subarray(cut));
        s.send('complete', { type: 'complete', output: { changed: ['out.txt'] }, cost: { usd: 0.5 } });
        s.end();
      },
    });
    const approvals = createMemoryApprovalChannel({
      onRequest: (r) => approvals.resolve(r.approvalId, { kind: 'approve', scope: 'once', by: 'tester' }),
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl, { costModel: 'custom/pi' }));
    const { events, end } = await collectRun(
      startRun({
        adapter,
        request: { prompt: 'write out.txt', cwd },
        taskId: 'task-1',
        leaseToken: 'lease-1',
        leaseEpoch: 7,
        mcpUrl: 'http://127.0.0.1:9/mcp',
        approvals,
        tools: ({ runId, emit }) =>
          createToolHost({
            runId,
            workspacePath: cwd,
            tools: builtinTools(),
            policy: { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] },
            approvals,
            emit,
            task: { prompt: 'write out.txt' },
          }),
      }),
    );
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('completed');
    expect(end.output).toEqual({ changed: ['out.txt'] });
    expect(end.totals.usd).toBe(0.5);
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('hi');
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['approval_request', 'approval_granted']));
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.type === 'tool_result' && e.isError)).toEqual([
      false,
      false,
    ]);
    expect(events.find((e) => e.type === 'comment')).toMatchObject({ text: 'done ✓' });
    expect(errors(events, 'malformed_record')).toEqual([]);
    expect(inputs[0]).toMatchObject({ type: 'tool_result', id: '1', ok: true });
    expect(inputs[1]).toMatchObject({ type: 'tool_result', id: '2', ok: true, value: { path: 'out.txt' } });
    const [created] = remote.createdBodies;
    expect(created).toMatchObject({
      runId: end.runId,
      taskId: 'task-1',
      leaseToken: 'lease-1',
      fencingToken: 7,
      // The run's MCP URL and token name this host's loopback: never sent to a remote (issue 30).
      mcpUrl: '',
      agent: { id: 'pi', name: 'pi', role: 'agent' },
      task: { prompt: 'write out.txt' },
      extensions: { 'caller-tools': { version: 1, required: true } },
    });
    expect(JSON.stringify(created)).not.toContain('127.0.0.1:9');
    expect((created as { context: Record<string, unknown> }).context).not.toHaveProperty('mcpToken');
    const posts = remote.requests.filter((r) => r.path.endsWith('/input'));
    expect(posts.map((r) => r.leaseEpoch)).toEqual(['7', '7']);
    expect(remote.requests.at(-1)?.method).toBe('DELETE');
    await expectClean(remote);
  });

  it('fails fast with remote_unavailable (reason crashed) when the connection is refused', async () => {
    const adapter = httpAdapter('pi', config('http://127.0.0.1:1'));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('crashed');
    expect(end.message).toContain('remote_unavailable');
    expect(errors(events, 'remote_unavailable')).toHaveLength(1);
  });

  it('fails the run when the remote dies mid-stream, and still tries DELETE', async () => {
    let remote: StandInRemote | undefined;
    remote = await standIn({
      script: (s) => {
        s.send('progress', { type: 'progress', summary: 'working' });
        setImmediate(() => void remote?.close());
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('failed');
    expect(end.message).toContain('unreachable mid-run');
    expect(errors(events, 'remote_unavailable')).toHaveLength(1);
    expect(remote.requests.some((r) => r.method === 'DELETE')).toBe(false); // the remote was gone
    await vi.waitFor(() => expect(remote.openSockets).toBe(0));
  });

  it('fails the run when the event stream breaks while the remote still answers, and deletes the session', async () => {
    const remote = await standIn({
      script: (s) => {
        s.send('progress', { type: 'progress', summary: 'working' });
        setImmediate(() => s.kill());
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('failed');
    expect(errors(events, 'remote_unavailable')).toHaveLength(1);
    expect(remote.deletedIds).toHaveLength(1);
    await expectClean(remote);
  });

  it('stops a stalled stream on the inactivity timeout: shutdown, abort, DELETE', async () => {
    const shutdowns: Record<string, unknown>[] = [];
    const remote = await standIn({
      script: async (s) => {
        s.send('progress', { type: 'progress', summary: 'thinking' });
        shutdowns.push(await s.nextInput()); // and never answers it
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl), { shutdownGraceMs: 50 });
    const { events, end } = await collectRun(
      startRun({ adapter, request: { prompt: 'x', cwd: workspace() }, inactivityTimeoutMs: 100, graceMs: 10_000 }),
    );
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('inactivity');
    expect(shutdowns).toEqual([{ type: 'shutdown', reason: 'inactivity' }]);
    expect(remote.deletedIds).toHaveLength(1);
    await expectClean(remote);
  });

  it('reports garbage frames as malformed_record and goes on', async () => {
    const remote = await standIn({
      script: (s) => {
        s.raw('data: not json\n\n');
        s.raw('event: progress\ndata: {"type":"progress",\n\n');
        s.raw('event: tool_call\ndata: {"type":"tool_call","tool":"read_task"}\n\n');
        s.raw('\u0000\u0001 garbage without a field\n\n');
        s.send('error', { type: 'error', message: 'disk hiccup' });
        s.send('progress', { type: 'progress', summary: 'still here' });
        completeScript(s);
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('completed');
    expect(errors(events, 'malformed_record').length).toBeGreaterThanOrEqual(3);
    expect(errors(events, 'agent_error').map((e) => e.message)).toEqual(['the remote reported: disk hiccup']);
    expect(events.find((e) => e.type === 'progress')).toMatchObject({ summary: 'still here' });
    await expectClean(remote);
  });

  it('fails with a clear auth reason on 401', async () => {
    const remote = await standIn({ token: () => 'right', script: completeScript });
    const adapter = httpAdapter('pi', config(remote.baseUrl, { auth: { type: 'bearer', tokenEnv: 'PI_TOKEN' } }));
    const { events, end } = await collectRun(
      startRun({ adapter, request: { prompt: 'x', cwd: workspace() }, env: { PI_TOKEN: 'wrong' } }),
    );
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('failed');
    expect(end.message).toContain('auth');
    expect(events.filter((e) => e.type === 'auth_error')).toHaveLength(1);
    expect(remote.createdBodies).toHaveLength(0);
    await expectClean(remote);
  });

  it('retries a 503 busy creation through the run retry policy (retryOn crashed)', async () => {
    let calls = 0;
    const remote = await standIn({
      onCreate: () =>
        ++calls === 1 ? { status: 503, body: { error: 'busy' }, headers: { 'retry-after': '1' } } : undefined,
      script: completeScript,
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl));
    const retry: RunOptions['retry'] = { attempts: 2, backoffMs: 1, maxBackoffMs: 1, jitter: 0, retryOn: ['crashed'] };
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() }, retry }));
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('completed');
    expect(errors(events, 'remote_unavailable')[0]?.message).toContain('busy');
    expect(remote.createdBodies).toHaveLength(2);
    await expectClean(remote);
  });

  it('pools sessions: 5 runs through 2 slots, in order, a waiting run abortable', async () => {
    const opened: { prompt: string; finish: () => void }[] = [];
    const remote = await standIn({
      script: (s) =>
        new Promise<void>((resolve) => {
          const task = s.created.task as { prompt: string };
          opened.push({
            prompt: task.prompt,
            finish: () => {
              completeScript(s);
              resolve();
            },
          });
        }),
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl, { maxConcurrentSessions: 2 }));
    const cwd = workspace();
    const handles = [0, 1, 2, 3, 4].map((i) => startRun({ adapter, request: { prompt: `p${i}`, cwd } }));
    const results = handles.map((h) => collectRun(h));
    await vi.waitFor(() => expect(opened).toHaveLength(2));
    handles[3]?.abort('no longer needed');
    const third = await results[3];
    expect(third?.end.reason).toBe('aborted');
    let finished = 0;
    while (finished < 4) {
      await vi.waitFor(() => expect(opened.length).toBeGreaterThan(finished));
      opened[finished]?.finish();
      finished++;
    }
    const ends = await Promise.all(results);
    expect(ends.map((r) => r.end.reason)).toEqual(['completed', 'completed', 'completed', 'aborted', 'completed']);
    expect(opened.map((o) => o.prompt)).toEqual(['p0', 'p1', 'p2', 'p4']);
    expect(remote.maxOpen).toBe(2);
    await expectClean(remote);
  });

  it('reads the bearer token at session creation: a rotated token applies to the next session only', async () => {
    const env: Record<string, string | undefined> = { PI_TOKEN: 'token-a' };
    const remote = await standIn({
      script: async (s) => {
        env.PI_TOKEN = 'token-b';
        s.send('tool_call', { type: 'tool_call', id: 'c1', tool: 'read_task', args: {} });
        await s.nextInput();
        completeScript(s);
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl, { auth: { type: 'bearer', tokenEnv: 'PI_TOKEN' } }));
    const cwd = workspace();
    const tools: RunOptions['tools'] = ({ runId, emit }) =>
      createToolHost({
        runId,
        workspacePath: cwd,
        tools: builtinTools(),
        policy: { default: 'allow' },
        emit,
        task: { prompt: 'x' },
      });
    const first = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd }, env, tools }));
    expect(first.end.reason).toBe('completed');
    const firstAuth = remote.requests.map((r) => r.authorization);
    expect(new Set(firstAuth)).toEqual(new Set(['Bearer token-a']));
    const second = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd }, env, tools }));
    expect(second.end.reason).toBe('completed');
    expect(new Set(remote.requests.slice(firstAuth.length).map((r) => r.authorization))).toEqual(
      new Set(['Bearer token-b']),
    );
    expect(JSON.stringify([...first.events, ...second.events])).not.toContain('token-a');
    await expectClean(remote);
  });

  it('fails fast with remote_unavailable when the host name does not resolve', async () => {
    const adapter = httpAdapter('pi', config('http://no-such-host.invalid:7001'));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expect(end.reason).toBe('crashed');
    expect(errors(events, 'remote_unavailable')[0]?.message).toContain('ENOTFOUND');
  });

  it('warns (recoverable) when auth none is used with a host that is not loopback', async () => {
    const remote = await standIn({ script: completeScript });
    const port = new URL(remote.baseUrl).port;
    // An IPv4-mapped IPv6 address: it reaches the local stand-in, but is not a loopback name to the check.
    const adapter = httpAdapter('pi', config(`http://[::ffff:127.0.0.1]:${port}`));
    const { events, end } = await collectRun(startRun({ adapter, request: { prompt: 'x', cwd: workspace() } }));
    expect(end.reason).toBe('completed');
    const warning = errors(events, 'auth');
    expect(warning).toHaveLength(1);
    expect(warning[0]?.recoverable).toBe(true);
    const local = await collectRun(
      startRun({ adapter: httpAdapter('pi', config(remote.baseUrl)), request: { prompt: 'x', cwd: workspace() } }),
    );
    expect(errors(local.events, 'auth')).toHaveLength(0);
    await expectClean(remote);
  });

  it('on 409 fencing_token_stale: reports it and refuses later tool calls without running them', async () => {
    const cwd = workspace();
    const rejected: Record<string, unknown>[] = [];
    let onStale: () => void = () => undefined;
    const staleSeen = new Promise<void>((resolve) => {
      onStale = resolve;
    });
    const remote = await standIn({
      minLeaseEpoch: 8,
      script: async (s) => {
        s.send('tool_call', { type: 'tool_call', id: 'a', tool: 'read_task', args: {} });
        rejected.push(await s.nextRejected());
        await staleSeen; // the client has read the 409
        s.send('tool_call', { type: 'tool_call', id: 'b', tool: 'write_file', args: { path: 'b.txt', content: 'x' } });
        rejected.push(await s.nextRejected());
        completeScript(s);
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl));
    const { events, end } = await collectRun(
      startRun({
        adapter,
        request: { prompt: 'x', cwd },
        leaseEpoch: 7,
        onEvent: (e) => {
          if (e.type === 'error' && e.code === 'lease_expired') onStale();
        },
        tools: ({ runId, emit }) =>
          createToolHost({
            runId,
            workspacePath: cwd,
            tools: builtinTools(),
            policy: { default: 'allow' },
            emit,
            task: { prompt: 'x' },
          }),
      }),
    );
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('completed');
    const stale = errors(events, 'lease_expired');
    expect(stale[0]).toMatchObject({
      recoverable: true,
      message: expect.stringContaining('fencing token 7 is older than 8'),
    });
    expect(rejected[1]).toEqual({ type: 'tool_result', id: 'b', ok: false, error: 'fencing token expired' });
    expect(() => readFileSync(join(cwd, 'b.txt'))).toThrow();
    await expectClean(remote);
  });

  it('stops a remote that ignores the lease-expiry shutdown: later tool calls fenced, DELETE, run failed and flagged', async () => {
    const cwd = workspace();
    const replies: Record<string, unknown>[] = [];
    const remote = await standIn({
      script: async (s) => {
        s.send('progress', { type: 'progress', summary: 'busy' });
        replies.push(await s.nextInput()); // the shutdown, ignored
        s.send('tool_call', {
          type: 'tool_call',
          id: 'late',
          tool: 'write_file',
          args: { path: 'late.txt', content: 'x' },
        });
        replies.push(await s.nextInput());
      },
    });
    const adapter = httpAdapter('pi', config(remote.baseUrl), { shutdownGraceMs: 300 });
    const handle = startRun({
      adapter,
      request: { prompt: 'x', cwd },
      graceMs: 10_000,
      tools: ({ runId, emit }) =>
        createToolHost({
          runId,
          workspacePath: cwd,
          tools: builtinTools(),
          policy: { default: 'allow' },
          emit,
          task: { prompt: 'x' },
        }),
      onEvent: (e) => {
        if (e.type === 'progress') handle.expireLease();
      },
    });
    const { events, end } = await collectRun(handle);
    expectWellFormedStream(events, 'pi');
    expect(end.reason).toBe('failed');
    expect(replies).toEqual([
      { type: 'shutdown', reason: 'lease_expired' },
      { type: 'tool_result', id: 'late', ok: false, error: 'fencing token expired' },
    ]);
    expect(() => readFileSync(join(cwd, 'late.txt'))).toThrow();
    expect(errors(events, 'agent_error').some((e) => e.message.includes('ignored the shutdown'))).toBe(true);
    expect(remote.deletedIds).toHaveLength(1);
    await expectClean(remote);
  });
});
