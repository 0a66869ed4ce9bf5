import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAdapter } from '../../../../src/adapters/protocols/process/process-adapter.ts';
import { processTranslator } from '../../../../src/adapters/protocols/process/process-translator.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { autoApprovalChannel } from '../../../../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { defaultPolicy } from '../../../../src/core/tools/default-policy.ts';
import { collectRun } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const node = process.execPath;
const workspace = () => mkdtempSync(join(tmpdir(), 'agent-mux-process-'));
const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

function runScript(cwd: string, source: string, debug = false) {
  const script = join(cwd, 'agent.mjs');
  writeFileSync(script, source);
  return collectRun(
    startRun({
      adapter: processAdapter('p', { binary: node, args: [script] }),
      request: { prompt: 'the task', cwd },
      debug,
      mcp: 'off',
      tools: ({ runId, emit }) =>
        createToolHost({
          runId,
          workspacePath: cwd,
          tools: builtinTools(),
          policy: defaultPolicy,
          approvals: autoApprovalChannel('deny'),
          emit,
          task: { prompt: 'the task' },
        }),
    }),
  );
}

/** An agent that sends the given tool calls one by one and completes with the results it got. */
const caller = (calls: object[]) => `
import { createInterface } from 'node:readline';
const calls = ${JSON.stringify(calls)};
const results = [];
const rl = createInterface({ input: process.stdin });
const send = () => process.stdout.write(JSON.stringify(calls[results.length]) + '\\n');
rl.on('line', (line) => {
  results.push(JSON.parse(line));
  if (results.length === calls.length) {
    process.stdout.write(JSON.stringify({ type: 'complete', output: results }) + '\\n');
    process.exit(0);
  }
  send();
});
send();
`;

describe('process adapter: bad input from the agent', () => {
  it('answers a tool_call for an unknown tool, and one with invalid arguments, with errors naming why', async () => {
    const { events, end } = await runScript(
      workspace(),
      caller([
        { type: 'tool_call', id: 'a', tool: 'launch_missiles', args: {} },
        { type: 'tool_call', id: 'b', tool: 'read_file', args: { path: 42 } },
        { type: 'tool_call', id: 'c', tool: 'write_file', args: { path: 'x.txt', content: 'x' } },
      ]),
    );
    expect(end.reason).toBe('completed');
    const results = end.output as { id: string; ok: boolean; error?: string }[];
    expect(results.map((r) => [r.id, r.ok])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
    ]);
    expect(results[0]?.error).toMatch(/unknown tool "?launch_missiles"?.*read_task/);
    expect(results[1]?.error).toMatch(/invalid input for read_file: path: .*string/);
    expect(results[2]?.error).toMatch(/denied/);
    expect(ofType(events, 'tool_result').map((e) => e.isError)).toEqual([true, true, true]);
  });

  it('drops unknown record types (a debug event in debug mode) and reports malformed ones', async () => {
    const source = `
      const out = (o) => process.stdout.write((typeof o === 'string' ? o : JSON.stringify(o)) + '\\n');
      out({ type: 'telemetry', x: 1 });
      out({ type: 'tool_call', tool: 'read_task' });
      out({ type: 'tool_call', id: 'x' });
      out('[1, 2]');
      out({ type: 'complete', output: 1 });`;
    const quiet = await runScript(workspace(), source);
    expect(quiet.end.reason).toBe('completed');
    expect(ofType(quiet.events, 'debug')).toEqual([]);
    expect(ofType(quiet.events, 'error').map((e) => e.message)).toEqual([
      'tool_call without an id',
      'tool_call without a tool name',
    ]);
    const debug = await runScript(workspace(), source, true);
    expect(ofType(debug.events, 'debug').map((e) => e.message)).toEqual([
      'unknown record type "telemetry"',
      'a JSON line that is not an object',
    ]);
    expect(ofType(debug.events, 'debug')[0]?.raw).toEqual({ type: 'telemetry', x: 1 });
  });
});

describe('process adapter: tools over MCP', () => {
  it('serves the run tools on 127.0.0.1 with a bearer token the events never show', async () => {
    const cwd = workspace();
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('mcp-agent', { binary: node, args: [fixtureBin('mcp-client-agent.mjs')] }),
        request: { prompt: 'use MCP', cwd },
        approvals: autoApprovalChannel('deny'),
        tools: ({ runId, emit }) =>
          createToolHost({
            runId,
            workspacePath: cwd,
            tools: builtinTools(),
            policy: defaultPolicy,
            approvals: autoApprovalChannel('deny'),
            emit,
            task: { prompt: 'use MCP' },
          }),
      }),
    );
    expect(end.reason).toBe('completed');
    expect(end.output).toMatchObject({
      task: { prompt: 'use MCP' },
      writeError: true,
      unauthenticated: 401,
    });
    const tools = (end.output as { tools: string[] }).tools;
    expect(tools).toEqual(expect.arrayContaining(['read_task', 'write_file', 'list_files', 'approval_prompt']));
    expect(ofType(events, 'progress')[0]?.summary).toBe('token ***');
    expect(ofType(events, 'approval_denied')).toHaveLength(1);
  });
});

describe('process translator', () => {
  it('maps cost fields, marking them cumulative', () => {
    const state = processTranslator.init({ debug: false });
    const drafts = processTranslator.translate(
      {
        kind: 'json',
        value: { type: 'complete', output: {}, cost: { usd: 0.42, notes: 'custom engine' } },
      },
      state,
    );
    expect(drafts).toEqual([expect.objectContaining({ type: 'cost', usd: 0.42, cumulative: true })]);
    expect(state.outcome).toEqual({ status: 'completed', output: {} });
  });

  it('answers odd records at the edge without throwing: malformed_record for a known type, else nothing', () => {
    const state = processTranslator.init({ debug: false });
    const translate = (value: unknown) => processTranslator.translate({ kind: 'json', value }, state);
    expect(() => translate({ type: 'tool_call', id: {}, tool: 'x' })).not.toThrow();
    expect(translate({ type: 'tool_call', id: {}, tool: 'x' })).toEqual([
      { type: 'error', code: 'malformed_record', message: 'tool_call without an id', recoverable: true },
    ]);
    expect(translate({ type: 'tool_call', id: 7, tool: null })).toEqual([
      { type: 'error', code: 'malformed_record', message: 'tool_call without a tool name', recoverable: true },
    ]);
    for (const value of [[1], null, 3, { type: 9 }, { type: 'nope' }]) expect(translate(value)).toEqual([]);
    expect(translate({ type: 'progress', summary: 5, beliefs: 'x', cost: [] })).toEqual([
      { type: 'progress', summary: '', beliefs: undefined, attempted: undefined },
    ]);
  });
});
