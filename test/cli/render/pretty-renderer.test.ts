import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prettyRenderer } from '../../../src/cli/render/pretty-renderer.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';

const totals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 };
// The renderer reads only the fields it shows; the envelope is filled in as the core stamps it.
const ev = (event: Record<string, unknown>) =>
  ({ runId: 'run_1', agent: 'gemini', timestamp: 0, totals, ...event }) as unknown as AgentEvent;

function render(events: AgentEvent[]): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const r = prettyRenderer({ out, status: new PassThrough(), color: false, adapter: 'gemini', verbose: false });
  for (const e of events) r.onEvent(e);
  r.close();
  return text;
}

describe('prettyRenderer', () => {
  it('a program that is not installed is said once: no "crashed (exit null)", no repeat at the end', () => {
    const message = 'gemini is not installed or not on PATH; install it with: npm install -g @google/gemini-cli';
    const text = render([
      ev({ type: 'error', code: 'program_missing', message, recoverable: false }),
      ev({ type: 'crash', exitCode: null, signal: null, stderr: message }),
      ev({ type: 'run_end', reason: 'crashed', message, durationMs: 100, attempts: 1 }),
    ]);
    expect(text.split('\n').filter((l) => l.includes('not installed'))).toHaveLength(1);
    expect(text).not.toContain('exit null');
    expect(text).toBe(`! program_missing: ${message}\n✘ crashed · 0.1 s · 0 tokens · USD 0.0000\n`);
  });

  it('a real crash shows its exit code, stderr tail and the reason at the end', () => {
    const text = render([
      ev({ type: 'crash', exitCode: 3, signal: null, stderr: 'boom\nat line 2' }),
      ev({ type: 'run_end', reason: 'crashed', message: 'gemini exited with code 3', durationMs: 2000, attempts: 1 }),
    ]);
    expect(text).toBe(
      '✗ crashed (exit 3)\n  boom\n  at line 2\n✘ crashed: gemini exited with code 3 · 2.0 s · 0 tokens · USD 0.0000\n',
    );
  });

  it('a spent budget or a timeout reads once at the end, not as its code and then its message', () => {
    const spent = render([
      ev({ type: 'run_end', reason: 'budget_exceeded', message: 'budget exceeded', durationMs: 2000, attempts: 1 }),
    ]);
    expect(spent).toBe('✘ budget exceeded · 2.0 s · 0 tokens · USD 0.0000\n');
    const late = render([
      ev({ type: 'run_end', reason: 'timeout', message: 'timed out after 1000 ms', durationMs: 1000, attempts: 1 }),
    ]);
    expect(late).toBe('✘ timed out after 1000 ms · 1.0 s · 0 tokens · USD 0.0000\n');
  });

  it('an auth error is labelled once', () => {
    const text = render([
      ev({ type: 'auth_error', message: 'the variable PI_TOKEN is not set', guidance: 'set PI_TOKEN' }),
      ev({
        type: 'run_end',
        reason: 'failed',
        message: 'auth: the variable PI_TOKEN is not set',
        durationMs: 0,
        attempts: 1,
      }),
    ]);
    expect(text).toContain('✗ auth: the variable PI_TOKEN is not set — set PI_TOKEN\n');
    expect(text).not.toContain('auth: auth:');
  });
});
