import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  readRolloutCalls,
  rolloutCallFailed,
  rolloutCalls,
} from '../../../../src/adapters/agents/codex/codex-rollout.ts';
import { codexSessionLog } from '../../../../src/adapters/agents/codex/codex-session-log.ts';

// Recorded with Codex 0.169.0 under codex-acp 2.6.0 (read-only mode, HOME outside /tmp): the model
// ran the write sandboxed (refused: read-only file system), then asked with escalation and a justification.
const RECORDED = readFileSync(
  join(import.meta.dirname, '../../../fixtures/codex-rollout/sandbox-refused-then-escalated.jsonl'),
  'utf8',
);
const SESSION = '01a2242b-7793-7c43-b641-e2173fac3377';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function codexHomeWith(text: string, sessionId = SESSION): string {
  const home = mkdtempSync(join(tmpdir(), 'agent-mux-rollout-'));
  dirs.push(home);
  const day = join(home, 'sessions', '2026', '11', '28');
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, `rollout-2026-11-28T21-59-18-${sessionId}.jsonl`), text);
  return home;
}

describe('Codex rollout', () => {
  it('reads the refused sandboxed call and the escalated one with its justification', () => {
    const calls = rolloutCalls(RECORDED);
    expect(calls).toEqual([
      expect.objectContaining({
        callId: 'call_fake_1',
        tool: 'exec_command',
        command: 'echo agent-mux-live > agent-mux-live.txt',
        exitCode: 1,
      }),
      expect.objectContaining({
        callId: 'call_fake_2',
        justification: 'Write the marker file in the workspace.',
        exitCode: 0,
      }),
    ]);
    expect(calls[0]?.output).toContain('Read-only file system');
    expect(calls.map(rolloutCallFailed)).toEqual([true, false]);
  });

  it('keeps only the current turn: calls before the last user message are earlier turns', () => {
    const turn = (id: string) =>
      [
        { type: 'response_item', payload: { type: 'message', role: 'user', content: [] } },
        {
          type: 'response_item',
          payload: { type: 'function_call', name: 'exec_command', call_id: id, arguments: '{"cmd":"false"}' },
        },
        {
          type: 'response_item',
          payload: { type: 'function_call_output', call_id: id, output: 'Process exited with code 1\n' },
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n');
    expect(rolloutCalls(`${turn('old')}\n${turn('new')}\n`).map((c) => c.callId)).toEqual(['new']);
  });

  it('skips lines that are not JSON or not calls, and the old shell tool JSON output counts its exit code', () => {
    const text = [
      'not json {"call_id"',
      JSON.stringify({
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          call_id: 'c',
          arguments: '{"command":["bash","-lc","touch x"]}',
        },
      }),
      JSON.stringify({
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'c', output: '{"output":"","metadata":{"exit_code":2}}' },
      }),
    ].join('\n');
    expect(rolloutCalls(text)).toEqual([expect.objectContaining({ command: 'bash -lc touch x', exitCode: 2 })]);
  });

  it('finds the rollout by session id and does not follow a rollout made a link', async () => {
    const home = codexHomeWith(RECORDED);
    expect(await readRolloutCalls(home, SESSION)).toHaveLength(2);
    const secret = join(home, 'secret.jsonl');
    writeFileSync(secret, RECORDED);
    const linked = codexHomeWith('');
    const file = join(linked, 'sessions', '2026', '11', '28', `rollout-2026-11-28T21-59-18-${SESSION}.jsonl`);
    rmSync(file);
    symlinkSync(secret, file);
    expect(await readRolloutCalls(linked, SESSION)).toEqual([]);
  });

  it('codex-acp: gives the justification for an escalation, and the failed calls ACP did not report', async () => {
    const home = codexHomeWith(RECORDED);
    const env = { CODEX_HOME: home };
    expect(await codexSessionLog.reason(env, SESSION, 'call_fake_2')).toBe('Write the marker file in the workspace.');
    expect(await codexSessionLog.unreported(env, SESSION, new Set(['call_fake_2']))).toEqual([
      expect.objectContaining({
        toolCallId: 'call_fake_1',
        title: 'echo agent-mux-live > agent-mux-live.txt',
        kind: 'execute',
        exitCode: 1,
      }),
    ]);
    expect(await codexSessionLog.unreported(env, SESSION, new Set(['call_fake_1', 'call_fake_2']))).toEqual([]);
  });

  it('codex-acp: no rollout, no reason (after a bounded wait)', async () => {
    const started = Date.now();
    expect(await codexSessionLog.reason({ CODEX_HOME: codexHomeWith('') }, 'other', 'x')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
