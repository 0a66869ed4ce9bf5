import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events/index.ts';
import { RecordsFromEvents } from '../../src/remote/records-from-events.ts';

const base = { runId: 'r', agent: 'pi', timestamp: 1 };
const ready = { ...base, type: 'tool_call_ready', toolCallId: 't1', toolName: 'bash', input: { command: 'ls -la' } };
const failed = { ...base, type: 'tool_result', toolCallId: 't1', toolName: 'bash', output: 'denied', isError: true };
const ok = { ...base, type: 'tool_result', toolCallId: 't2', toolName: 'bash', output: 'fine', isError: false };

function all(records: RecordsFromEvents, events: unknown[]) {
  const out = events.flatMap((event) => records.translate(event as AgentEvent));
  return [...out, ...records.flush()];
}

describe('RecordsFromEvents: the steps of a served agent', () => {
  it('tells the caller each tool the agent runs itself, and each that failed', () => {
    expect(all(new RecordsFromEvents({ ownToolSteps: true }), [ready, failed, ok])).toEqual([
      { type: 'progress', summary: '⚙ bash {"command":"ls -la"}' },
      { type: 'progress', summary: '✗ bash: denied' },
    ]);
  });

  it('says nothing of relayed calls: the caller runs and shows them itself', () => {
    expect(all(new RecordsFromEvents(), [ready, failed, ok])).toEqual([]);
  });
});
