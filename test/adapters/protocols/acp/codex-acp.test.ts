import { readFileSync } from 'node:fs';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { codexAcpAdapter } from '../../../../src/adapters/agents/codex/index.ts';
import { acpTranslator, pickOption } from '../../../../src/adapters/protocols/acp/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

const streams = new URL('../../../fixtures/streams/acp-codex/', import.meta.url);
const lines = (name: string) =>
  readFileSync(new URL(`${name}.jsonl`, streams), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function translate(name: string): { drafts: EventDraft[]; state: ReturnType<typeof acpTranslator.init> } {
  const state = acpTranslator.init({ debug: false, request: { prompt: 'p', cwd: '/w' } });
  const drafts = lines(name).flatMap((value) => acpTranslator.translate({ kind: 'json', value }, state));
  return { drafts, state };
}

/** The `session/request_permission` codex-acp 2.6.0 sent (recorded live) for the workspace write. */
const permissionRequest = (name: string): RequestPermissionRequest => {
  const found = lines(name).find((m) => m.method === 'session/request_permission');
  if (!found) throw new Error(`${name}: no permission request recorded`);
  return found.params as RequestPermissionRequest;
};

describe('codex-acp (recorded from codex-acp 2.6.0 + codex 0.169.0)', () => {
  it('asks before the shell command that writes, with the command as the title', () => {
    const request = permissionRequest('tool');
    expect(request.toolCall).toMatchObject({
      kind: 'execute',
      title: 'echo agent-mux-live > agent-mux-live.txt',
      rawInput: { command: 'echo agent-mux-live > agent-mux-live.txt' },
    });
    expect(pickOption(request.options, { kind: 'approve', scope: 'once' })?.optionId).toBe('allow_once');
    // `always` stays the run's: the exec-policy amendment (allow_always) would outlive it.
    expect(pickOption(request.options, { kind: 'approve', scope: 'always' })?.optionId).toBe('allow_once');
    // Codex offers no "decline and go on": its reject option cancels the turn.
    expect(pickOption(request.options, { kind: 'deny', reason: 'no' })?.optionId).toBe('cancel');
  });

  it('reports the approved command with its exit code', () => {
    const { drafts, state } = translate('tool');
    expect(drafts.find((d) => d.type === 'tool_result')).toMatchObject({
      toolName: 'execute',
      output: { exitCode: 0 },
      isError: false,
    });
    expect(state.outcome).toEqual({ status: 'completed', message: undefined });
  });

  it('ends a refused command as a cancelled, failed turn', () => {
    const { drafts, state } = translate('denied');
    expect(drafts.find((d) => d.type === 'turn_end')).toMatchObject({ stopReason: 'cancelled', isError: true });
    expect(state.outcome?.status).toBe('failed');
  });

  it('turns the 429 codex gives up on into rate_limit_error and a failed run, though the turn ends end_turn', () => {
    const { drafts, state } = translate('rate-429');
    const errors = drafts.filter((d) => d.type === 'rate_limit_error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ message: expect.stringContaining('429 Too Many Requests') });
    expect(state.outcome).toMatchObject({ status: 'failed', message: expect.stringContaining('429') });
  });

  it('keeps the usage of the prompt response as tokens', () => {
    const { drafts } = translate('plain');
    expect(drafts.find((d) => d.type === 'cost')).toMatchObject({
      inputTokens: 80,
      outputTokens: 24,
      cacheReadTokens: 40,
    });
  });

  it('a retried error stays quiet until the agent gives up; a final one (willRetry false) is reported', () => {
    const state = acpTranslator.init({ debug: false, request: { prompt: 'p', cwd: '/w' } });
    const info = (meta: Record<string, unknown>) => ({
      kind: 'json' as const,
      value: {
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 's', update: { sessionUpdate: 'session_info_update', _meta: { codex: meta } } },
      },
    });
    const retry = {
      message: 'Reconnecting... 1/5',
      codexErrorInfo: { other: { httpStatusCode: 401 } },
      willRetry: true,
    };
    expect(acpTranslator.translate(info({ error: retry }), state)).toEqual([]);
    const final = { message: 'unauthorized', codexErrorInfo: { other: { httpStatusCode: 401 } }, willRetry: false };
    expect(acpTranslator.translate(info({ error: final }), state)).toEqual([
      { type: 'auth_error', message: 'unauthorized' },
    ]);
    expect(acpTranslator.translate(info({ threadStatus: { type: 'systemError' } }), state)).toEqual([]);
  });

  it("a turn's failure is that turn's: a later turn in the same stream reports its own error, or none", () => {
    const state = acpTranslator.init({ debug: false, request: { prompt: 'p', cwd: '/w' } });
    const info = (message: string) => ({
      kind: 'json' as const,
      value: {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: 's',
          update: {
            sessionUpdate: 'session_info_update',
            _meta: {
              codex: { error: { message, codexErrorInfo: { other: { httpStatusCode: 429 } }, willRetry: false } },
            },
          },
        },
      },
    });
    const end = (id: number) => ({
      kind: 'json' as const,
      value: { jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } },
    });
    for (const [id, message] of [
      [3, 'rate limited'],
      [5, 'rate limited'],
    ] as const) {
      expect(acpTranslator.translate(info(message), state)).toEqual([{ type: 'rate_limit_error', message }]);
      expect(acpTranslator.translate(end(id), state)).toContainEqual({
        type: 'turn_end',
        stopReason: 'end_turn',
        isError: true,
      });
      expect(state.outcome).toEqual({ status: 'failed', message });
    }
    expect(acpTranslator.translate(end(7), state)).toContainEqual({ type: 'turn_end', stopReason: 'end_turn' });
    expect(state.outcome).toEqual({ status: 'completed', message: undefined });
  });

  it('declares the launcher and starts sessions read-only unless told otherwise', async () => {
    const adapter = codexAcpAdapter();
    expect(adapter.id).toBe('codex-acp');
    expect(adapter.program).toMatchObject({
      command: 'codex-acp',
      npmPackage: '@agentclientprotocol/codex-acp',
      testedVersion: '2.6.0',
      // The Codex recorded with it, not the ^0.166.0 codex-acp 2.6.0 depends on.
      npmOverrides: { '@openai/codex': '0.169.0' },
    });
    expect(adapter.capabilities.approvals).toBe('native');
    if (adapter.launch.kind !== 'process') throw new Error('process launch expected');
    const ctx = { runId: 'r', request: { prompt: 'p', cwd: '/w' } } as Parameters<typeof adapter.launch.plan>[0];
    expect((await adapter.launch.plan(ctx)).env).toMatchObject({ INITIAL_AGENT_MODE: 'read-only' });
    const full = codexAcpAdapter({ mode: 'workspace-write' });
    if (full.launch.kind !== 'process') throw new Error('process launch expected');
    expect((await full.launch.plan(ctx)).env).toMatchObject({ INITIAL_AGENT_MODE: 'workspace-write' });
  });
});
