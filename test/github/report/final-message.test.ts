import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import { FinalMessage } from '../../../src/github/report/final-message.ts';

type Draft = {
  [T in AgentEvent['type']]: Omit<Extract<AgentEvent, { type: T }>, 'runId' | 'agent' | 'timestamp'>;
}[AgentEvent['type']];
const base = { runId: 'run_1', agent: 'demo', timestamp: 0 };

function fed(...drafts: Draft[]): FinalMessage {
  const message = new FinalMessage();
  for (const draft of drafts) message.apply({ ...base, ...draft } as AgentEvent);
  return message;
}
const said = (text: string): Draft[] => [
  { type: 'message_start' },
  { type: 'text_delta', delta: text },
  { type: 'message_stop' },
];

describe('FinalMessage (the one tracker of the agent’s last message)', () => {
  it('is the last message that had text, streamed or given whole', () => {
    expect(fed(...said('first'), ...said('  second  ')).text).toBe('second');
    expect(
      fed({ type: 'message_start' }, { type: 'text_delta', delta: 'drafted' }, { type: 'message_stop', text: 'whole' })
        .text,
    ).toBe('whole');
    // An empty whole text does not erase what streamed; a message without text does not hide the one before.
    expect(
      fed({ type: 'message_start' }, { type: 'text_delta', delta: 'streamed' }, { type: 'message_stop', text: '' })
        .text,
    ).toBe('streamed');
    expect(fed(...said('answer'), { type: 'message_start' }, { type: 'message_stop' }).text).toBe('answer');
  });

  it('counts a message still streaming when the run ended', () => {
    expect(fed(...said('done'), { type: 'message_start' }, { type: 'text_delta', delta: 'cut off' }).text).toBe(
      'cut off',
    );
  });

  it('says nothing when the agent said nothing', () => {
    const message = fed({ type: 'message_start' }, { type: 'text_delta', delta: '  \n' }, { type: 'message_stop' });
    expect(message.text).toBeUndefined();
    expect(message.summary).toBeUndefined();
  });

  it('the answer is the first 8,000 characters; the record’s summary the last 4,000, or the turn’s result', () => {
    const long = `${'a'.repeat(7000)}${'b'.repeat(7000)}${'c'.repeat(3000)}`;
    const deltas: Draft[] = [{ type: 'message_start' }];
    for (let i = 0; i < long.length; i += 700) deltas.push({ type: 'text_delta', delta: long.slice(i, i + 700) });
    const message = fed(...deltas, { type: 'message_stop' });
    expect(message.text).toBe(long.slice(0, 8000));
    expect(message.summary).toBe(long.slice(-4000));
    const withResult = fed(...said('the message'), {
      type: 'turn_end',
      result: ' the result ',
      isError: false,
    } as Draft);
    expect(withResult.text).toBe('the message');
    expect(withResult.summary).toBe('the result');
  });
});
