import { describe, expect, it } from 'vitest';
import { StreamLedger } from '../../../src/adapters/shared/stream-ledger.ts';
import type { EventDraft } from '../../../src/core/events/index.ts';

describe('StreamLedger', () => {
  it('opens a message for text, closes thinking before text, and gives the whole text at stop', () => {
    const ledger = new StreamLedger(() => 0);
    const out: EventDraft[] = [];
    ledger.thinking(out, 'hmm');
    ledger.text(out, 'Hel', 'm1');
    ledger.text(out, 'lo', 'm1');
    ledger.stopMessage(out);
    expect(out.map((d) => d.type)).toEqual([
      'thinking_start',
      'thinking_delta',
      'message_start',
      'thinking_stop',
      'text_delta',
      'text_delta',
      'message_stop',
    ]);
    expect(out.at(-1)).toEqual({ type: 'message_stop', messageId: 'm1', text: 'Hello' });
  });

  it('closes the open message when another id starts', () => {
    const ledger = new StreamLedger(() => 0);
    const out: EventDraft[] = [];
    ledger.text(out, 'a', 'm1');
    ledger.text(out, 'b', 'm2');
    expect(out.filter((d) => d.type === 'message_stop')).toEqual([
      { type: 'message_stop', messageId: 'm1', text: 'a' },
    ]);
    expect(ledger.messageId).toBe('m2');
  });

  it('keeps tool calls in order: start, input, ready (parsed), result with the clock’s duration', () => {
    let now = 1000;
    const ledger = new StreamLedger(() => now);
    const out: EventDraft[] = [];
    ledger.startTool(out, 't1', 'Bash');
    ledger.toolInput(out, 't1', '{"command":');
    ledger.toolInput(out, 't1', '"ls"}');
    now = 1250;
    ledger.toolResult(out, 't1', 'a\nb', false);
    expect(out).toEqual([
      { type: 'tool_call_start', toolCallId: 't1', toolName: 'Bash' },
      { type: 'tool_input_delta', toolCallId: 't1', delta: '{"command":' },
      { type: 'tool_input_delta', toolCallId: 't1', delta: '"ls"}' },
      { type: 'tool_call_ready', toolCallId: 't1', toolName: 'Bash', input: { command: 'ls' } },
      { type: 'tool_result', toolCallId: 't1', toolName: 'Bash', output: 'a\nb', isError: false, durationMs: 250 },
    ]);
    expect(ledger.hasTool('t1')).toBe(false);
  });

  it('starts a call it never saw when its result comes, and readies everything at finish', () => {
    const ledger = new StreamLedger(() => 0);
    const out: EventDraft[] = [];
    ledger.toolResult(out, 'x', 'out', true, 'Read');
    ledger.startTool(out, 'y', 'Edit');
    ledger.toolInput(out, 'y', '{broken');
    ledger.text(out, 'done');
    ledger.finish(out);
    expect(out.map((d) => d.type)).toEqual([
      'tool_call_start',
      'tool_call_ready',
      'tool_result',
      'tool_call_start',
      'tool_input_delta',
      'message_start',
      'text_delta',
      'message_stop',
      'tool_call_ready',
    ]);
    expect(out.at(-1)).toEqual({ type: 'tool_call_ready', toolCallId: 'y', toolName: 'Edit', input: {} });
  });

  it('stops without text when told (null), and counts a duration from runTool', () => {
    let now = 0;
    const ledger = new StreamLedger(() => now);
    const out: EventDraft[] = [];
    ledger.thinking(out, 'hmm');
    expect(ledger.thinkingText).toBe('hmm');
    ledger.stopThinking(out, null);
    expect(ledger.thinkingText).toBe('');
    ledger.text(out, 'streamed', 'm1');
    ledger.stopMessage(out, null);
    ledger.startTool(out, 't', 'Bash');
    now = 100;
    ledger.runTool('t');
    now = 130;
    ledger.toolResult(out, 't', 'ok', false);
    expect(out).toContainEqual({ type: 'thinking_stop', messageId: undefined });
    expect(out).toContainEqual({ type: 'message_stop', messageId: 'm1' });
    expect(out.at(-1)).toMatchObject({ type: 'tool_result', durationMs: 30 });
  });

  it('leaves durations out when told, and twins an MCP tool call with its mcp_* events', () => {
    const ledger = new StreamLedger(() => 5, {
      toolDurations: false,
      mcpToolName: (name) => (name.startsWith('mcp.') ? { server: 'gh', tool: name.slice(4) } : undefined),
    });
    const out: EventDraft[] = [];
    ledger.startTool(out, 't', 'mcp.read');
    ledger.toolInput(out, 't', '{"path":"a"}');
    ledger.toolResult(out, 't', 'x', false);
    ledger.startTool(out, 'u', 'Edit');
    ledger.startTool(out, 'v', 'mcp.edit');
    ledger.finish(out);
    expect(out).toEqual([
      { type: 'tool_call_start', toolCallId: 't', toolName: 'mcp.read' },
      { type: 'tool_input_delta', toolCallId: 't', delta: '{"path":"a"}' },
      { type: 'tool_call_ready', toolCallId: 't', toolName: 'mcp.read', input: { path: 'a' } },
      { type: 'mcp_tool_call_start', toolCallId: 't', server: 'gh', toolName: 'read', input: { path: 'a' } },
      { type: 'tool_result', toolCallId: 't', toolName: 'mcp.read', output: 'x', isError: false },
      { type: 'mcp_tool_result', toolCallId: 't', server: 'gh', toolName: 'read', output: 'x', isError: false },
      { type: 'tool_call_start', toolCallId: 'u', toolName: 'Edit' },
      { type: 'tool_call_start', toolCallId: 'v', toolName: 'mcp.edit' },
      { type: 'tool_call_ready', toolCallId: 'u', toolName: 'Edit', input: {} },
      { type: 'tool_call_ready', toolCallId: 'v', toolName: 'mcp.edit', input: {} },
      { type: 'mcp_tool_call_start', toolCallId: 'v', server: 'gh', toolName: 'edit', input: {} },
    ]);
  });

  it("gives the duration the agent reported instead of the clock's, also without tool durations", () => {
    let now = 0;
    const ledger = new StreamLedger(() => now, { toolDurations: false });
    const out: EventDraft[] = [];
    ledger.startTool(out, 't1', 'bash');
    now = 500;
    ledger.toolResult(out, 't1', 'ok', false, undefined, 42);
    ledger.toolResult(out, 't2', 'no', true, 'read');
    const results = out.filter((d) => d.type === 'tool_result');
    expect(results).toEqual([
      { type: 'tool_result', toolCallId: 't1', toolName: 'bash', output: 'ok', isError: false, durationMs: 42 },
      { type: 'tool_result', toolCallId: 't2', toolName: 'read', output: 'no', isError: true },
    ]);
    expect(results[1]).not.toHaveProperty('durationMs');
  });

  it('gives thinking outside a message its own id, and closes a block of another id', () => {
    const ledger = new StreamLedger(() => 0);
    const out: EventDraft[] = [];
    ledger.thinking(out, 'a', 't1');
    ledger.thinking(out, 'b');
    ledger.thinking(out, 'c', 't2');
    ledger.stopThinking(out);
    ledger.text(out, 'x', 'm1');
    ledger.thinking(out, 'd');
    ledger.stopMessage(out);
    expect(out).toEqual([
      { type: 'thinking_start', messageId: 't1' },
      { type: 'thinking_delta', delta: 'a', messageId: 't1' },
      { type: 'thinking_delta', delta: 'b', messageId: 't1' },
      { type: 'thinking_stop', messageId: 't1', thinking: 'ab' },
      { type: 'thinking_start', messageId: 't2' },
      { type: 'thinking_delta', delta: 'c', messageId: 't2' },
      { type: 'thinking_stop', messageId: 't2', thinking: 'c' },
      { type: 'message_start', messageId: 'm1' },
      { type: 'text_delta', delta: 'x', messageId: 'm1' },
      { type: 'thinking_start', messageId: 'm1' },
      { type: 'thinking_delta', delta: 'd', messageId: 'm1' },
      { type: 'thinking_stop', messageId: 'm1', thinking: 'd' },
      { type: 'message_stop', messageId: 'm1', text: 'x' },
    ]);
  });

  it('streams empty deltas and gives empty texts at stop with emptyDeltas, drops them without', () => {
    const plain = new StreamLedger(() => 0);
    const dropped: EventDraft[] = [];
    plain.text(dropped, '');
    plain.thinking(dropped, '');
    expect(dropped).toEqual([]);
    const ledger = new StreamLedger(() => 0, { emptyDeltas: true });
    const out: EventDraft[] = [];
    ledger.text(out, '', 'm1');
    ledger.stopMessage(out);
    ledger.thinking(out, '');
    ledger.stopThinking(out);
    expect(out).toEqual([
      { type: 'message_start', messageId: 'm1' },
      { type: 'text_delta', delta: '', messageId: 'm1' },
      { type: 'message_stop', messageId: 'm1', text: '' },
      { type: 'thinking_start', messageId: undefined },
      { type: 'thinking_delta', delta: '', messageId: undefined },
      { type: 'thinking_stop', messageId: undefined, thinking: '' },
    ]);
  });

  it('makes ready at finish only the calls not ready yet (ready calls without a result are not revisited)', () => {
    const ledger = new StreamLedger(() => 0, { toolDurations: false });
    const out: EventDraft[] = [];
    for (let i = 0; i < 50; i++) {
      ledger.startTool(out, `r${i}`, 'Read');
      ledger.readyTool(out, `r${i}`, {});
    }
    ledger.startTool(out, 'open', 'Edit');
    ledger.toolInput(out, 'open', '{"a":1}');
    out.length = 0;
    ledger.finish(out);
    ledger.finish(out);
    expect(out).toEqual([{ type: 'tool_call_ready', toolCallId: 'open', toolName: 'Edit', input: { a: 1 } }]);
    expect(ledger.hasTool('r0')).toBe(true);
  });

  it('keeps no text past maxTextChars: the stop carries none, the next message starts afresh', () => {
    const ledger = new StreamLedger(() => 0, { maxTextChars: 3 });
    const out: EventDraft[] = [];
    ledger.text(out, 'abc');
    ledger.text(out, 'd');
    expect(ledger.messageText).toBe('');
    ledger.stopMessage(out);
    ledger.text(out, 'xy');
    ledger.stopMessage(out);
    expect(out.filter((d) => d.type === 'message_stop')).toEqual([
      { type: 'message_stop', messageId: undefined },
      { type: 'message_stop', messageId: undefined, text: 'xy' },
    ]);
    expect(out.filter((d) => d.type === 'text_delta').map((d) => d.type === 'text_delta' && d.delta)).toEqual([
      'abc',
      'd',
      'xy',
    ]);
  });
});
