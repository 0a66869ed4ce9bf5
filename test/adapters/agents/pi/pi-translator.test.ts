import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { piAdapter } from '../../../../src/adapters/agents/pi/index.ts';
import { piArgs, piPlan, piThinking, piToolArgs } from '../../../../src/adapters/agents/pi/pi-plan.ts';
import { piMalformed, piRecord, piRecordSchema } from '../../../../src/adapters/agents/pi/pi-record.ts';
import {
  classifyError,
  defaultMcpToolName,
  type PiTranslatorState,
  piTranslator,
  sessionIdFromPath,
} from '../../../../src/adapters/agents/pi/pi-translator.ts';
import type { LaunchContext, RunRequest } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';
import { expectEdgeCheckAgrees } from '../../../support/edge-check-agreement.ts';

const json = (value: unknown) => ({ kind: 'json', value }) as const;
const fresh = (debug = false, request?: RunRequest) => piTranslator.init({ debug, request });
const feed = (records: unknown[], state: PiTranslatorState = fresh()): EventDraft[] =>
  records.flatMap((r) => piTranslator.translate(json(r), state));
const types = (drafts: EventDraft[]) => drafts.map((d) => d.type);

const assistant = (extra: Record<string, unknown> = {}) => ({
  role: 'assistant',
  content: [],
  model: 'claude-fake',
  usage: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, cost: { total: 0.0012 } },
  stopReason: 'stop',
  ...extra,
});

describe('pi translator', () => {
  it('replays the recorded tool stream into session, turns, a tool call with input deltas and its result', () => {
    const lines = readFileSync(new URL('../../../fixtures/streams/pi/tool.jsonl', import.meta.url), 'utf8').split('\n');
    const state = fresh();
    const drafts = lines.filter(Boolean).flatMap((l) => piTranslator.translate(json(JSON.parse(l)), state));
    expect(types(drafts).slice(0, 5)).toEqual([
      'session_start',
      'turn_start',
      'message_start',
      'tool_call_start',
      'tool_input_delta',
    ]);
    const ready = drafts.find((d) => d.type === 'tool_call_ready');
    expect(ready).toMatchObject({ toolName: 'bash', input: { command: 'echo agent-mux-live' } });
    expect(drafts.find((d) => d.type === 'tool_result')).toMatchObject({ output: 'agent-mux-live\n', isError: false });
    expect(state.outcome).toEqual({ status: 'completed', output: 'The command ran and printed agent-mux-live. Done.' });
    expect(state.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('streams text and thinking deltas inside one message and closes an open thinking block', () => {
    const drafts = feed([
      { type: 'message_start', message: assistant() },
      { type: 'message_update', assistantMessageEvent: { type: 'thinking_start', contentIndex: 0 } },
      { type: 'message_update', assistantMessageEvent: { type: 'thinking_delta', contentIndex: 0, delta: 'hmm' } },
      { type: 'message_update', assistantMessageEvent: { type: 'thinking_end', contentIndex: 0, content: 'hmm' } },
      { type: 'message_update', assistantMessageEvent: { type: 'text_delta', contentIndex: 1, delta: 'Hi' } },
      { type: 'message_end', message: assistant({ content: [{ type: 'text', text: 'Hi' }] }) },
    ]);
    expect(types(drafts)).toEqual([
      'message_start',
      'thinking_start',
      'thinking_delta',
      'thinking_stop',
      'text_delta',
      'message_stop',
      'cost',
    ]);
    expect(drafts.at(-2)).toMatchObject({ type: 'message_stop', text: 'Hi' });
    expect(drafts.at(-1)).toEqual({
      type: 'cost',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 2,
      cacheWriteTokens: 1,
      model: 'claude-fake',
      usd: 0.0012,
    });
  });

  it('announces a tool call whose start carried no id (omp) at toolcall_end, once', () => {
    const drafts = feed([
      { type: 'message_start', message: assistant() },
      { type: 'message_update', assistantMessageEvent: { type: 'toolcall_start', contentIndex: 0 } },
      { type: 'message_update', assistantMessageEvent: { type: 'toolcall_delta', contentIndex: 0, delta: '{"a"' } },
      {
        type: 'message_update',
        assistantMessageEvent: {
          type: 'toolcall_end',
          contentIndex: 0,
          toolCall: { id: 't1', name: 'read', arguments: { path: 'x' } },
        },
      },
      {
        type: 'message_end',
        message: assistant({ content: [{ type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'x' } }] }),
      },
      { type: 'tool_execution_start', toolCallId: 't1', toolName: 'read', args: { path: 'x' } },
      {
        type: 'tool_execution_end',
        toolCallId: 't1',
        toolName: 'read',
        result: { content: [{ type: 'text', text: 'ok' }] },
        isError: false,
      },
    ]);
    expect(types(drafts).filter((t) => t.startsWith('tool'))).toEqual([
      'tool_call_start',
      'tool_call_ready',
      'tool_result',
    ]);
  });

  it('synthesizes start and ready for a tool executed without a streamed call', () => {
    const drafts = feed([
      { type: 'tool_execution_start', toolCallId: 'x', toolName: 'bash', args: { command: 'ls' } },
      {
        type: 'tool_execution_end',
        toolCallId: 'x',
        toolName: 'bash',
        result: { content: [{ type: 'image', data: 'AA' }] },
        isError: true,
      },
    ]);
    expect(types(drafts)).toEqual(['tool_call_start', 'tool_call_ready', 'tool_result']);
    expect(drafts[2]).toMatchObject({ isError: true, output: [{ type: 'image', data: 'AA' }] });
  });

  it('reports MCP tools (mcp__server_tool) as mcp_tool_call_start / mcp_tool_result too', () => {
    const drafts = feed([
      { type: 'tool_execution_start', toolCallId: 'm', toolName: 'mcp__agentmux_approval_prompt', args: { a: 1 } },
      {
        type: 'tool_execution_end',
        toolCallId: 'm',
        toolName: 'mcp__agentmux_approval_prompt',
        result: { content: [] },
        isError: false,
      },
    ]);
    expect(drafts).toContainEqual({
      type: 'mcp_tool_call_start',
      toolCallId: 'm',
      server: 'agentmux',
      toolName: 'approval_prompt',
      input: { a: 1 },
    });
    expect(drafts.find((d) => d.type === 'mcp_tool_result')).toMatchObject({
      server: 'agentmux',
      toolName: 'approval_prompt',
    });
    expect(defaultMcpToolName('bash')).toBeUndefined();
  });

  it('emits session_resume and session_fork from the request and the header', () => {
    const id = '01a20197-939e-71b4-8a2e-114cd96d30d4';
    expect(
      feed([{ type: 'session', id, cwd: '/w' }], fresh(false, { prompt: '', cwd: '/w', resumeSessionId: id })),
    ).toEqual([{ type: 'session_resume', sessionId: id, previousSessionId: undefined }]);
    const forked = feed([{ type: 'session', id: 'new-id', parentSession: `/s/2026-11-22T04-50-40-671Z_${id}.jsonl` }]);
    expect(forked).toEqual([{ type: 'session_fork', sessionId: 'new-id', forkedFrom: id }]);
    expect(
      feed([{ type: 'session', id: 'n' }], fresh(false, { prompt: '', cwd: '/w', resumeSessionId: 'o', fork: true })),
    ).toEqual([{ type: 'session_fork', sessionId: 'n', forkedFrom: 'o' }]);
    expect(sessionIdFromPath('plain.jsonl')).toBe('plain');
  });

  it('turns a failed request into a typed error and a failed outcome (pi exits 0)', () => {
    const state = fresh();
    const error = '401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}';
    const drafts = feed(
      [
        { type: 'turn_start' },
        {
          type: 'message_start',
          message: assistant({ stopReason: 'error', errorMessage: error, usage: { input: 0, output: 0 } }),
        },
        {
          type: 'message_end',
          message: assistant({ stopReason: 'error', errorMessage: error, usage: { input: 0, output: 0 } }),
        },
        { type: 'turn_end', message: assistant({ stopReason: 'error' }) },
        { type: 'agent_end', messages: [] },
      ],
      state,
    );
    expect(types(drafts)).toEqual(['turn_start', 'message_start', 'message_stop', 'auth_error', 'turn_end']);
    expect(drafts.at(-1)).toMatchObject({ type: 'turn_end', stopReason: 'error', isError: true });
    expect(state.outcome).toEqual({ status: 'failed', message: error });
  });

  it('classifies each error kind', () => {
    expect(classifyError('429 {"error":{"type":"rate_limit_error"}} retry-after-ms=1000')).toMatchObject({
      type: 'rate_limit_error',
      retryAfterMs: 1000,
    });
    expect(classifyError('Rate limit reached. Please try again in 20s.')).toMatchObject({ retryAfterMs: 20_000 });
    expect(classifyError('400 prompt is too long: 210000 tokens > 200000 maximum').type).toBe('context_exceeded');
    expect(classifyError('No API key found for anthropic').type).toBe('auth_error');
    expect(classifyError('500 internal server error')).toEqual({
      type: 'error',
      code: 'agent_error',
      message: '500 internal server error',
      recoverable: false,
    });
  });

  it('keeps the last failure when auto-retry gives up, and clears it when a retry succeeds', () => {
    const failed = fresh();
    feed(
      [
        { type: 'message_end', message: assistant({ stopReason: 'error', errorMessage: '429 busy' }) },
        { type: 'agent_end', messages: [] },
        { type: 'auto_retry_start', attempt: 1, maxAttempts: 1, delayMs: 10, errorMessage: '429 busy' },
        { type: 'auto_retry_end', success: false, attempt: 1, finalError: '429 still busy' },
      ],
      failed,
    );
    expect(failed.outcome).toEqual({ status: 'failed', message: '429 still busy' });
    const recovered = fresh();
    feed(
      [
        { type: 'message_end', message: assistant({ stopReason: 'error', errorMessage: '429 busy' }) },
        { type: 'agent_end', messages: [] },
        { type: 'message_end', message: assistant({ content: [{ type: 'text', text: 'done' }] }) },
        { type: 'agent_end', messages: [] },
        { type: 'auto_retry_end', success: true, attempt: 1 },
      ],
      recovered,
    );
    expect(recovered.outcome).toEqual({ status: 'completed', output: 'done' });
  });

  it('drops unknown records unless debugging, and never throws on malformed ones', () => {
    expect(feed([{ type: 'brand_new_event' }, 'a string', 42, null])).toEqual([]);
    const debug = feed([{ type: 'brand_new_event' }], fresh(true));
    expect(debug).toEqual([
      { type: 'debug', message: 'unknown record type "brand_new_event"', data: { type: 'brand_new_event' } },
    ]);
    expect(feed([{ type: 'agent_start' }, { type: 'queue_update' }])).toEqual([]);
    const bad = feed([
      { type: 'session' },
      { type: 'message_start' },
      { type: 'message_update' },
      { type: 'tool_execution_start' },
      { type: 'tool_execution_end', toolCallId: 1 },
    ]);
    expect(bad.every((d) => d.type === 'error' && d.code === 'malformed_record')).toBe(true);
    expect(bad).toHaveLength(5);
    // Straight through `translate`, without the pipeline's guard: odd shapes neither throw nor fail inside.
    const odd = [
      { type: 'message_update', assistantMessageEvent: { type: 'toolcall_start', contentIndex: 0, partial: 'x' } },
      { type: 'message_update', assistantMessageEvent: { type: 'toolcall_delta', contentIndex: 'a', delta: 3 } },
      { type: 'message_end', message: { role: 'assistant', content: 'text', usage: [1] } },
      { type: 'tool_execution_end', toolCallId: 't', toolName: 'bash', result: { content: 'nope' } },
      { type: 'turn_end', message: 'x' },
      { type: 'session', id: 'abc', parentSession: 5 },
    ];
    let drafts: EventDraft[] = [];
    expect(() => {
      drafts = feed(odd);
    }).not.toThrow();
    expect(drafts.filter((d) => d.type === 'error')).toEqual([]);
  });

  it('turns plain-text lines into text (between messages) or logs (inside one)', () => {
    const state = fresh();
    const between = piTranslator.translate({ kind: 'text', line: 'Warning: extension loaded' }, state);
    expect(types(between)).toEqual(['message_start', 'text_delta', 'message_stop']);
    feed([{ type: 'message_start', message: assistant() }], state);
    expect(piTranslator.translate({ kind: 'text', line: 'noise' }, state)).toEqual([
      { type: 'log', source: 'stdout', line: 'noise' },
    ]);
    expect(piTranslator.translate({ kind: 'text', line: '   ' }, state)).toEqual([]);
    expect(types(piTranslator.finish?.({ exitCode: 0, signal: null }, state) ?? [])).toEqual(['message_stop']);
  });
});

const ctx = (request: Partial<RunRequest> = {}, policy?: LaunchContext['policy']): LaunchContext => ({
  request: { prompt: 'do it', cwd: '/work', ...request },
  runId: 'r',
  taskId: 't',
  leaseToken: 'l',
  leaseEpoch: 1,
  mcpUrl: '',
  mcpToken: '',
  workspacePath: '/work',
  env: {},
  debug: false,
  policy,
});

describe('pi plan', () => {
  it('runs RPC mode: get_session_stats and the prompt as commands on stdin, kept open for messages mid-run', () => {
    const plan = piPlan(ctx(), { command: 'pi', thinking: piThinking });
    expect(plan).toMatchObject({ command: 'pi', args: ['--mode', 'rpc'], cwd: '/work', protocol: 'json-lines' });
    expect(plan.keepStdinOpen).toBe(true);
    const lines = String(plan.stdin)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      { id: 'agent-mux-session', type: 'get_session_stats' },
      { id: 'agent-mux-prompt', type: 'prompt', message: 'do it' },
    ]);
    expect(plan.input?.message('also this')).toEqual({
      type: 'prompt',
      message: 'also this',
      streamingBehavior: 'steer',
    });
  });

  it('runs headless JSON mode with files attached (RPC mode refuses @file): no messages mid-run', () => {
    const plan = piPlan(ctx({ files: [{ name: 'a.png', path: '/tmp/a.png' }] }), {
      command: 'pi',
      thinking: piThinking,
    });
    expect(plan).toMatchObject({ args: ['--mode', 'json', '--print', '@/tmp/a.png'], stdin: 'do it' });
    expect(plan.keepStdinOpen).toBeUndefined();
    expect(plan.input).toBeUndefined();
  });

  it('maps model, system prompt, thinking, resume, fork and files to real flags', () => {
    expect(
      piArgs(
        ctx({
          model: 'anthropic/claude-sonnet-4',
          systemPrompt: 'Be brief.',
          thinkingEffort: 'max',
          resumeSessionId: 'abc',
          files: [{ name: 'a.png', path: '/tmp/a.png' }],
        }),
        piThinking,
      ),
    ).toEqual([
      '--mode',
      'json',
      '--print',
      '--model',
      'anthropic/claude-sonnet-4',
      '--append-system-prompt',
      'Be brief.',
      '--thinking',
      'xhigh',
      '--session',
      'abc',
    ]);
    const withFiles = piPlan(ctx({ files: [{ name: 'a.png', path: '/tmp/a.png' }] }, { default: 'deny' }), {
      command: 'pi',
      thinking: piThinking,
    });
    expect(withFiles.args.slice(-2)).toEqual(['--no-tools', '@/tmp/a.png']);
    expect(piArgs(ctx({ resumeSessionId: 'abc', fork: true }), piThinking)).toEqual(['--mode', 'rpc', '--fork', 'abc']);
  });

  it('maps the permission policy onto the --tools allowlist', () => {
    expect(piToolArgs(undefined)).toEqual([]);
    expect(piToolArgs({ default: 'allow' })).toEqual([]);
    expect(piToolArgs({ default: 'allow', rules: [{ tool: 'bash', decision: 'deny' }] })).toEqual([
      '--tools',
      'read,edit,write',
    ]);
    expect(piToolArgs({ default: 'allow', rules: [{ tool: 'bash', decision: 'ask' }] })).toEqual([
      '--tools',
      'read,edit,write',
    ]);
    expect(piToolArgs({ default: 'deny' })).toEqual(['--no-tools']);
    expect(
      piToolArgs({
        default: 'deny',
        rules: [
          { tool: 'read', decision: 'allow' },
          { tool: 'grep', decision: 'allow' },
        ],
      }),
    ).toEqual(['--tools', 'read,grep']);
    // An allow narrowed by arguments cannot be checked before the call: it does not enable the tool.
    expect(
      piToolArgs({ default: 'deny', rules: [{ tool: 'bash', decision: 'allow', when: { command: 'ls *' } }] }),
    ).toEqual(['--no-tools']);
    expect(piToolArgs({ default: 'allow', rules: [{ tool: '*', decision: 'deny' }] })).toEqual(['--no-tools']);
  });

  it('detects auth from env keys, read-only', () => {
    const adapter = piAdapter();
    expect(adapter.detectAuth?.({ ANTHROPIC_API_KEY: 'x', HOME: '/nonexistent' })).toMatchObject({
      status: 'authenticated',
      method: 'api_key',
      details: ['ANTHROPIC_API_KEY'],
    });
    expect(adapter.detectAuth?.({ HOME: '/nonexistent' }).status).toBe('unauthenticated');
  });
});

describe('piRecord', () => {
  it('checks by hand exactly what the schema checks (pi and omp records)', () => {
    expectEdgeCheckAgrees({ malformed: piMalformed, schema: piRecordSchema, check: piRecord, streams: ['pi', 'omp'] });
  });
});
