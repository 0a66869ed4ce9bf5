import { describe, expect, it } from 'vitest';
import { codexAppServerController, codexTurnInput } from '../../../../src/adapters/agents/codex/codex-app-server.ts';
import type { NativeRecord, ProcessController, RunIO } from '../../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../../src/core/events/index.ts';

// Message shapes as codex 0.169.0's app-server sends them (test/fixtures/streams/codex/tool.jsonl,
// and a steered run recorded by hand: turn/steer answered `{turnId}` mid-turn, `no active turn to
// steer` (-32600) after turn/completed).
const THREAD = 'thread-1';
const json = (value: unknown): NativeRecord => ({ kind: 'json', value });

function harness() {
  const written: Record<string, unknown>[] = [];
  const emitted: EventDraft[] = [];
  let inputClosed = 0;
  const io: RunIO = {
    writeLine: async (value) => {
      written.push(value as Record<string, unknown>);
    },
    closeInput: () => {
      inputClosed += 1;
    },
    emit: (draft) => {
      emitted.push(draft);
    },
    fail: () => undefined,
    signal: new AbortController().signal,
  };
  const controller = codexAppServerController(io, { input: codexTurnInput('Fix the bug'), startedAt: Date.now() });
  const feed = (value: unknown) => controller.onRecord?.(json(value));
  return { controller, written, emitted, feed, inputClosed: () => inputClosed };
}

const threadAnswer = { id: 'agent-mux-thread', result: { thread: { id: THREAD } } };
const turnStarted = (id: string) => ({ method: 'turn/started', params: { threadId: THREAD, turn: { id } } });
const turnCompleted = (id: string) => ({
  method: 'turn/completed',
  params: { threadId: THREAD, turn: { id, status: 'completed' } },
});
const userMessage = (text: string) => ({
  method: 'item/started',
  params: { item: { type: 'userMessage', id: `u-${text}`, content: [{ type: 'text', text, text_elements: [] }] } },
});
const steer = (controller: ProcessController, text: string) => controller.steer?.({ text, from: '@alice' });

describe('codexAppServerController', () => {
  it('starts the turn with the prompt once the thread is there', () => {
    const h = harness();
    h.feed(threadAnswer);
    expect(h.written).toEqual([
      {
        id: 'agent-mux-turn',
        method: 'turn/start',
        params: { threadId: THREAD, input: [{ type: 'text', text: 'Fix the bug', text_elements: [] }] },
      },
    ]);
  });

  it('queues a message before the turn has started', () => {
    const h = harness();
    h.feed(threadAnswer);
    expect(steer(h.controller, 'too early')).toEqual({ kind: 'queued', reason: 'the agent has not started its turn' });
  });

  it('steers the turn in progress and says so where Codex takes the message', () => {
    const h = harness();
    h.feed(threadAnswer);
    h.feed(turnStarted('turn-1'));
    expect(steer(h.controller, '  Also handle Windows  ')).toEqual({ kind: 'delivered' });
    expect(h.written.at(-1)).toEqual({
      id: 'agent-mux-steer-1',
      method: 'turn/steer',
      params: {
        threadId: THREAD,
        expectedTurnId: 'turn-1',
        input: [{ type: 'text', text: 'Also handle Windows', text_elements: [] }],
      },
    });
    expect(h.controller.holdsTurn?.()).toBe(true);
    h.feed({ id: 'agent-mux-steer-1', result: { turnId: 'turn-1' } });
    expect(h.emitted).toEqual([]);
    h.feed(userMessage('Also handle Windows'));
    expect(h.emitted).toEqual([
      {
        type: 'notice',
        code: 'steered',
        message: expect.stringMatching(/^a message from @alice was delivered to the running agent at 00:00: "Also/),
      },
    ]);
    expect(h.controller.holdsTurn?.()).toBe(false);
    h.feed(turnCompleted('turn-1'));
    expect(h.inputClosed()).toBe(1);
    expect(steer(h.controller, 'after the end')).toEqual({ kind: 'queued', reason: 'the agent has finished its turn' });
  });

  it('gives a message that found the turn over a turn of its own, and ends after it', () => {
    const h = harness();
    h.feed(threadAnswer);
    h.feed(turnStarted('turn-1'));
    expect(steer(h.controller, 'late words')).toEqual({ kind: 'delivered' });
    // The turn ends before Codex reads the steer: the run waits.
    h.feed(turnCompleted('turn-1'));
    expect(h.controller.holdsTurn?.()).toBe(true);
    expect(h.inputClosed()).toBe(0);
    h.feed({ id: 'agent-mux-steer-1', error: { code: -32600, message: 'no active turn to steer' } });
    expect(h.written.at(-1)).toEqual({
      id: 'agent-mux-turn-2',
      method: 'turn/start',
      params: { threadId: THREAD, input: [{ type: 'text', text: 'late words', text_elements: [] }] },
    });
    h.feed(turnStarted('turn-2'));
    h.feed(userMessage('late words'));
    expect(h.emitted.map((e) => e.type === 'notice' && e.code)).toEqual(['steered']);
    expect(h.controller.holdsTurn?.()).toBe(true);
    h.feed(turnCompleted('turn-2'));
    expect(h.controller.holdsTurn?.()).toBe(false);
    expect(h.inputClosed()).toBe(1);
  });

  it('gives an accepted message the turn ended without a turn of its own', () => {
    const h = harness();
    h.feed(threadAnswer);
    h.feed(turnStarted('turn-1'));
    steer(h.controller, 'one more thing');
    h.feed({ id: 'agent-mux-steer-1', result: { turnId: 'turn-1' } });
    h.feed(turnCompleted('turn-1'));
    expect(h.written.at(-1)).toMatchObject({ method: 'turn/start', params: { input: [{ text: 'one more thing' }] } });
    expect(h.inputClosed()).toBe(0);
    h.feed(turnStarted('turn-2'));
    h.feed(userMessage('one more thing'));
    h.feed(turnCompleted('turn-2'));
    expect(h.inputClosed()).toBe(1);
  });

  it('declines approvals and refuses other requests from the server, so none holds the run', () => {
    const h = harness();
    h.feed({ id: 7, method: 'item/commandExecution/requestApproval', params: {} });
    h.feed({ id: 8, method: 'item/tool/requestUserInput', params: {} });
    expect(h.written).toEqual([
      { id: 7, result: { decision: 'decline' } },
      {
        id: 8,
        error: { code: -32601, message: 'agent-mux runs Codex headless: nobody can answer item/tool/requestUserInput' },
      },
    ]);
  });

  it('closes stdin when Codex refuses the thread, and when the run is stopped', () => {
    const refused = harness();
    refused.feed({ id: 'agent-mux-thread', error: { code: -32600, message: 'no rollout found for thread id x' } });
    expect(refused.inputClosed()).toBe(1);
    expect(steer(refused.controller, 'hello')).toMatchObject({ kind: 'queued' });
    const stopped = harness();
    expect(stopped.controller.requestStop?.('cancelled')).toBe(true);
    expect(stopped.inputClosed()).toBe(1);
  });
});
