import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hermesAcpRecord, hermesAcpTranslator } from '../../../../src/adapters/agents/hermes/hermes-acp-translator.ts';
import { hermesAdapter } from '../../../../src/adapters/agents/hermes/index.ts';
import { decideByEffect } from '../../../../src/adapters/protocols/acp/acp-permission.ts';
import { acpToolInput, acpToolName } from '../../../../src/adapters/protocols/acp/acp-tool-fields.ts';
import type { NativeRecord } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

// Hermes Agent 0.18.2 over ACP, as recorded against the fake model server
// (test/fixtures/streams/hermes/README.md).
function recorded(name: string): NativeRecord[] {
  const text = readFileSync(new URL(`../../../fixtures/streams/hermes/${name}.jsonl`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return { kind: 'json', value: JSON.parse(line) as unknown };
      } catch {
        return { kind: 'text', line };
      }
    });
}

function translate(records: readonly NativeRecord[]) {
  const state = hermesAcpTranslator.init({ debug: false, clock: () => 0 });
  const events: EventDraft[] = [];
  for (const record of records) events.push(...hermesAcpTranslator.translate(record, state));
  events.push(...(hermesAcpTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? []));
  return { events, state };
}

const textOf = (events: readonly EventDraft[]) =>
  events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');

/** The recorded request_permission's tool call (it is the agent's request, not a session/update). */
function permissionCall(records: readonly NativeRecord[]): Record<string, unknown> {
  for (const record of records) {
    if (record.kind !== 'json') continue;
    const value = record.value as { method?: string; params?: { toolCall?: Record<string, unknown> } };
    if (value.method === 'session/request_permission' && value.params?.toolCall) return value.params.toolCall;
  }
  throw new Error('no session/request_permission in the recording');
}

describe('hermes over ACP (recorded from hermes-agent 0.18.2)', () => {
  it('runs `hermes acp`: no --toolsets, no --yolo, approvals through ACP, no cost model of its own', async () => {
    const adapter = hermesAdapter();
    expect(adapter.launch.kind).toBe('process');
    if (adapter.launch.kind !== 'process') return;
    const plan = await adapter.launch.plan({
      runId: 'r',
      request: { prompt: 'fix it', cwd: '/w' },
      env: {},
      policy: { default: 'ask' },
    } as never);
    expect(plan.command).toBe('hermes');
    expect(plan.args).toEqual(['acp']);
    expect(adapter.capabilities.approvals).toBe('native');
    expect(adapter.costModel).toBeUndefined();
    expect(adapter.program).toMatchObject({ testedVersion: '0.18.2', minVersion: '0.18.2', verifiedLive: true });
  });

  it('a plain turn: the answer as streamed, tokens priced by the model Hermes reports (custom:fake-model)', () => {
    const { events, state } = translate(recorded('plain'));
    expect(textOf(events)).toBe('Hello from the fake model. The answer is 42.');
    expect(events.find((e) => e.type === 'session_start')).toMatchObject({ model: 'custom:fake-model' });
    expect(events.find((e) => e.type === 'cost')).toMatchObject({
      inputTokens: 120,
      outputTokens: 24,
      cacheReadTokens: 40,
      model: 'custom:fake-model',
    });
    expect(state.outcome).toEqual({ status: 'completed', message: undefined });
  });

  it('stray stdout lines (what 0.18.2 prints on stdout in chat mode) are log lines, never answer text', () => {
    const lines = [
      '  ⚠ tirith security scanner enabled but not available — command scanning will use pattern matching only',
      'Warning: Unknown toolsets: none',
    ];
    const stray: NativeRecord[] = lines.map((line) => ({ kind: 'text', line }));
    const records = recorded('plain');
    const { events, state } = translate([...stray, ...records.slice(0, 3), ...stray, ...records.slice(3)]);
    expect(textOf(events)).toBe('Hello from the fake model. The answer is 42.');
    const logs = events.filter((e) => e.type === 'log').map((e) => (e.type === 'log' ? e.line : ''));
    expect(logs).toEqual([...lines, ...lines]);
    expect(state.outcome?.status).toBe('completed');
  });

  it('a 401 sent as the answer with end_turn is one auth_error and a failed run, no assistant message', () => {
    const { events, state } = translate(recorded('auth-401'));
    expect(events.filter((e) => e.type === 'text_delta' || e.type === 'message_start')).toEqual([]);
    const errors = events.filter((e) => /error/.test(e.type));
    expect(errors).toEqual([
      expect.objectContaining({ type: 'auth_error', message: 'HTTP 401: Incorrect API key provided: fake-key.' }),
    ]);
    expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ stopReason: 'end_turn', isError: true });
    expect(state.outcome).toEqual({ status: 'failed', message: 'HTTP 401: Incorrect API key provided: fake-key.' });
  });

  it('a 429 after Hermes gave up retrying is one rate_limit_error and a failed run', () => {
    const { events, state } = translate(recorded('rate-429'));
    expect(textOf(events)).toBe('');
    expect(events.filter((e) => /error/.test(e.type)).map((e) => e.type)).toEqual(['rate_limit_error']);
    expect(state.outcome?.status).toBe('failed');
    expect(state.outcome?.message).toMatch(/^API call failed after 1 retries: HTTP 429/);
  });

  it('an answer that merely starts like a failure is still the answer when the turn reports usage', () => {
    const records = recorded('plain').map((record): NativeRecord => {
      if (record.kind !== 'json') return record;
      const line = JSON.stringify(record.value).replace(
        '"text":"Hello ","type":"text"',
        '"text":"Error: none, ","type":"text"',
      );
      return { kind: 'json', value: JSON.parse(line) as unknown };
    });
    const { events, state } = translate(records);
    expect(textOf(events)).toBe('Error: none, from the fake model. The answer is 42.');
    expect(events.some((e) => /error/.test(e.type))).toBe(false);
    expect(state.outcome?.status).toBe('completed');
  });

  it('held failure text that the agent never closes with a response is reported as the text it was', () => {
    const records = recorded('auth-401').filter((r) => !(r.kind === 'json' && (r.value as { id?: number }).id === 2));
    const { events } = translate(records);
    expect(textOf(events)).toBe('HTTP 401: Incorrect API key provided: fake-key.');
  });

  it('tool calls get their tool and input back from the title and content (Hermes sends neither)', () => {
    const records = recorded('tool');
    const started = records.find(
      (r) =>
        r.kind === 'json' &&
        (r.value as { params?: { update?: { sessionUpdate?: string } } }).params?.update?.sessionUpdate === 'tool_call',
    );
    expect(JSON.stringify(started)).not.toContain('rawInput');
    const { events } = translate(records);
    const command = "sh -c 'echo agent-mux-live > agent-mux-live.txt'";
    expect(events.find((e) => e.type === 'tool_call_start')).toMatchObject({ toolName: 'terminal' });
    expect(events.find((e) => e.type === 'tool_call_ready')).toMatchObject({
      toolName: 'terminal',
      input: { title: `terminal: ${command}`, kind: 'execute', rawInput: { command } },
    });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ toolName: 'terminal', isError: false });
  });

  it("Hermes's permission question names the terminal, so the policy's rules on it hold (ask stays ask)", () => {
    const call = permissionCall(recorded('tool'));
    expect(acpToolName(call)).toBe('execute');
    const named = (
      hermesAcpRecord({
        kind: 'json',
        value: { method: 'session/request_permission', params: { toolCall: call } },
      }) as {
        value: { params: { toolCall: Record<string, unknown> } };
      }
    ).value.params.toolCall;
    const toolName = acpToolName(named);
    const input = acpToolInput(named);
    expect(toolName).toBe('terminal');
    expect(input.rawInput).toEqual({
      command: "sh -c 'echo agent-mux-live > agent-mux-live.txt'",
      description: 'shell command via -c/-lc flag',
    });
    const deny = { default: 'allow' as const, rules: [{ tool: 'terminal', decision: 'deny' as const }] };
    expect(decideByEffect(deny, toolName, input).decision).toBe('deny');
    expect(decideByEffect({ default: 'ask' }, toolName, input).decision).toBe('ask');
    expect(decideByEffect({ default: 'allow' }, toolName, input).decision).toBe('allow');
  });

  it('the denied recording: the policy refused the terminal and Hermes reported it BLOCKED', () => {
    const { events } = translate(recorded('denied'));
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ toolName: 'terminal' });
    expect(JSON.stringify(result)).toContain('BLOCKED: User denied this command');
  });
});
