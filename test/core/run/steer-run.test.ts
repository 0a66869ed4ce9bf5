import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../../src/adapters/agents/claude/index.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import type { SteerOutcome } from '../../../src/core/run/agent-input.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { withProgram } from '../../support/with-program.ts';

// Issue 37.1 in the core: messages written to a running agent's input (`RunHandle.steer`) on the
// Claude Code adapter, against a stand-in for its stream-json mode (test/fixtures/bin/stream-json-agent.mjs).
const agent = new URL('../../fixtures/bin/stream-json-agent.mjs', import.meta.url).pathname;
const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-steer-'));

function run(
  env: Record<string, string> = {},
  onEvent: (event: AgentEvent, steer: (text: string) => SteerOutcome) => void = () => {},
) {
  const events: AgentEvent[] = [];
  const handle = startRun({
    adapter: withProgram(claudeAdapter(), process.execPath, [agent]),
    request: { prompt: 'fix the bug', cwd },
    env: { ...process.env, ...env },
    mcp: 'off',
    timeoutMs: 30_000,
    graceMs: 1000,
    onEvent: (event) => {
      events.push(event);
      onEvent(event, (text) => handle.steer({ text, from: '@alice' }));
    },
  });
  return { handle, events, result: handle.result };
}

const answers = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'message_stop' && e.text ? [e.text] : []));
const steered = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'notice' && e.code === 'steered' ? [e.message] : []));

describe('steering a running agent (RunHandle.steer)', () => {
  it('a message during a step is taken in the same turn, and the run ends when nothing waits', async () => {
    let outcome: SteerOutcome | undefined;
    const { events, result } = run({}, (event, steer) => {
      if (event.type === 'tool_call_ready' && outcome === undefined) outcome = steer('also the Windows case');
    });
    const end = await result;
    expect(end.reason, end.message).toBe('completed');
    expect(outcome).toEqual({ kind: 'delivered' });
    expect(answers(events)).toEqual(['turn 1 took: fix the bug | also the Windows case']);
    expect(steered(events)).toEqual([
      expect.stringMatching(
        /^a message from @alice was delivered to the running agent at 00:0\d: "also the Windows case"$/,
      ),
    ]);
    // Where it entered the stream: after the step's result, before the answer.
    const kinds = events.map((e) => (e.type === 'notice' ? e.code : e.type));
    expect(kinds.indexOf('steered')).toBeGreaterThan(kinds.indexOf('tool_result'));
    expect(kinds.indexOf('steered')).toBeLessThan(kinds.lastIndexOf('message_stop'));
  });

  it('a message written as the turn ends is answered in another turn before the run ends', async () => {
    let sent = false;
    const { events, result } = run({ STEP_MS: '50' }, (event, steer) => {
      // The answer's text is out: the program is about to print its result.
      if (event.type === 'message_stop' && !sent) {
        sent = true;
        expect(steer('one more thing')).toEqual({ kind: 'delivered' });
      }
    });
    const end = await result;
    expect(end.reason, end.message).toBe('completed');
    expect(answers(events)).toEqual(['turn 1 took: fix the bug', 'turn 2 took: one more thing']);
    expect(steered(events)).toHaveLength(1);
  });

  it('a message given before the agent started goes in right after its prompt', async () => {
    const { handle, events, result } = run({ STEP_MS: '10' });
    expect(handle.steer({ text: 'before you start', from: '@bob' })).toEqual({ kind: 'delivered' });
    const end = await result;
    expect(end.reason, end.message).toBe('completed');
    expect(answers(events).join('\n')).toContain('before you start');
    expect(steered(events)).toHaveLength(1);
  });

  it('a message once the run is over, or to an agent that takes none, is queued with the reason', async () => {
    const { handle, result } = run({ STEP_MS: '10' });
    await result;
    expect(handle.steer({ text: 'late' })).toEqual({
      kind: 'queued',
      reason: expect.stringMatching(/finished its turn|ended|not running/),
    });
    const plain = startRun({
      adapter: withProgram(claudeAdapter(), 'true', []),
      request: { prompt: 'x', cwd },
      mcp: 'off',
    });
    await plain.result;
    expect(plain.steer({ text: 'x' })).toEqual({ kind: 'queued', reason: expect.any(String) });
  });

  it('an echo it never gives for the prompt does not hold the run', async () => {
    const { result, events } = run({ SILENT_PROMPT: '1', STEP_MS: '10' });
    const end = await result;
    expect(end.reason).toBe('completed');
    expect(steered(events)).toEqual([]);
  });
});
