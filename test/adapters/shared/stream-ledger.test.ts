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
});
