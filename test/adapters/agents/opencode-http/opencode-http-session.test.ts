import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { opencodeHttpAdapter, splitModel } from '../../../../src/adapters/agents/opencode-http/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import type { ApprovalChannel } from '../../../../src/core/tools/approval-channel.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun, processAlive } from '../../../support/collect-run.ts';

const fake = join(import.meta.dirname, 'fake-opencode-serve.mjs');
const streams = join(import.meta.dirname, '../../../fixtures/streams/opencode-http');
const dirs: string[] = [];
const pids: number[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  // A failed test must not leave a stand-in server behind.
  for (const pid of pids.splice(0)) if (processAlive(pid)) process.kill(-pid, 'SIGKILL');
});

function logLines(events: AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'log' ? [e.line] : []));
}

function serverPid(events: AgentEvent[]): number {
  const line = logLines(events).find((l) => l.startsWith('pid '));
  const pid = Number(line?.slice(4));
  pids.push(pid);
  return pid;
}

async function run(
  recording: string,
  options: { approvals?: ApprovalChannel; env?: Record<string, string>; abortOnTool?: boolean } = {},
) {
  const cwd = mkdtempSync(join(tmpdir(), 'och-test-'));
  dirs.push(cwd);
  const handle = startRun({
    adapter: opencodeHttpAdapter({ command: fake }),
    request: { prompt: 'Run echo', cwd },
    env: { ...process.env, FAKE_OPENCODE_SSE: join(streams, `${recording}.sse`), ...options.env },
    mcp: 'off',
    approvals: options.approvals,
    graceMs: 2000,
  });
  const result = await collectRun(handle);
  serverPid(result.events);
  return result;
}

describe('opencode-http session against a stand-in opencode serve', () => {
  it('tool: a well-formed completed run, the server group gone afterwards', async () => {
    const { events, end } = await run('tool');
    expectWellFormedStream(events, 'opencode-http');
    expect(end.reason).toBe('completed');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['session_start', 'tool_result', 'cost', 'turn_end']),
    );
    expect(end.sessionId).toMatch(/^ses_/);
    const pid = serverPid(events);
    expect(pid).toBeGreaterThan(0);
    expect(processAlive(pid)).toBe(false);
    // The policy went in as OpenCode permission config.
    const config = logLines(events).find((l) => l.startsWith('config '));
    expect(JSON.parse(config?.slice(7) ?? '{}')).toMatchObject({ permission: { '*': 'ask' } });
  });

  it('denied: permission.asked goes to the approval channel and the denial is posted back', async () => {
    const asked: string[] = [];
    const approvals: ApprovalChannel = {
      request: async (request) => {
        asked.push(request.toolName);
        return { kind: 'deny', reason: 'no shell today' };
      },
    };
    const { events, end } = await run('denied', { approvals });
    expectWellFormedStream(events, 'opencode-http');
    expect(end.reason).toBe('completed');
    expect(asked).toEqual(['bash']);
    expect(events.find((e) => e.type === 'approval_request')).toMatchObject({
      toolName: 'bash',
      input: { command: 'echo agent-mux-live' },
    });
    expect(events.some((e) => e.type === 'approval_denied')).toBe(true);
    const reply = logLines(events).find((l) => l.startsWith('reply '));
    expect(JSON.parse(reply?.slice(6) ?? '{}')).toEqual({ reply: 'reject', message: 'no shell today' });
  });

  it('an approval becomes a `once` reply', async () => {
    const approvals: ApprovalChannel = { request: async () => ({ kind: 'approve', scope: 'once' }) };
    const { events } = await run('denied', { approvals });
    const reply = logLines(events).find((l) => l.startsWith('reply '));
    expect(JSON.parse(reply?.slice(6) ?? '{}')).toEqual({ reply: 'once' });
  });

  it('auth-401: the run fails with an auth_error', async () => {
    const { events, end } = await run('auth-401');
    expectWellFormedStream(events, 'opencode-http');
    expect(end.reason).toBe('failed');
    expect(events.some((e) => e.type === 'auth_error')).toBe(true);
  });

  it('an abort stops a hanging session and its server', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'och-test-'));
    dirs.push(cwd);
    const handle = startRun({
      adapter: opencodeHttpAdapter({ command: fake }),
      request: { prompt: 'Run echo', cwd },
      env: { ...process.env, FAKE_OPENCODE_SSE: join(streams, 'plain.sse'), FAKE_OPENCODE_HANG: '1' },
      mcp: 'off',
      graceMs: 2000,
    });
    const events: AgentEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === 'turn_start') handle.abort('enough');
    }
    const end = await handle.result;
    expect(end.reason).toBe('aborted');
    expect(processAlive(serverPid(events))).toBe(false);
  });

  it('a program that is not opencode fails the run at start', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'och-test-'));
    dirs.push(cwd);
    const handle = startRun({
      adapter: opencodeHttpAdapter({ command: join(cwd, 'missing-opencode') }),
      request: { prompt: 'x', cwd },
      mcp: 'off',
    });
    const { end } = await collectRun(handle);
    expect(end.reason).toBe('failed');
  });
});

describe('splitModel', () => {
  it('splits provider/model and rejects bare names', () => {
    expect(splitModel('anthropic/claude-sonnet-4/x')).toEqual({
      providerID: 'anthropic',
      modelID: 'claude-sonnet-4/x',
    });
    expect(splitModel('gpt')).toBeUndefined();
    expect(splitModel(undefined)).toBeUndefined();
  });
});
