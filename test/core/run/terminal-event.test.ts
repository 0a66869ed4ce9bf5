import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADAPTER_SPECIFICATION_VERSION,
  type Adapter,
  type AgentSession,
  type SessionContext,
  type SessionOutcome,
  type ShutdownReason,
} from '../../../src/core/adapter/index.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { collectRun } from '../../support/collect-run.ts';

const workspace = () => mkdtempSync(join(tmpdir(), 'agent-mux-terminal-'));

interface FakeSessionLog {
  stops: ShutdownReason[];
  aborted: boolean;
}

/**
 * An in-process session that emits a cost, reports `complete` as its terminal event and then never
 * settles `done` by itself. `settleOnAbort`: `done` settles (with the same outcome) once the core aborts
 * its signal; otherwise it never settles at all.
 */
function lingeringSession(log: FakeSessionLog, settleOnAbort: boolean): Adapter {
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'lingering',
    displayName: 'lingering',
    capabilities: {
      resume: false,
      fork: false,
      thinking: 'no',
      mcp: false,
      approvals: 'none',
      pty: 'never',
      platforms: ['linux', 'darwin'],
      sessionPersistence: 'none',
      execModel: 'run-to-completion',
      nativeSessionIds: false,
      turnCompletion: true,
      streaming: 'text',
    },
    launch: {
      kind: 'session',
      open: async (ctx: SessionContext): Promise<AgentSession> => {
        const outcome: SessionOutcome = { status: 'completed', output: 'said so', sessionId: 's1' };
        const done = new Promise<SessionOutcome>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            log.aborted = true;
            if (settleOnAbort) resolve(outcome);
          });
        });
        setTimeout(() => {
          ctx.emit({ type: 'cost', inputTokens: 0, outputTokens: 0, usd: 0.75, cumulative: true });
          ctx.terminalReached?.(outcome);
        }, 10);
        return {
          done,
          stop: async (reason) => {
            log.stops.push(reason);
          },
        };
      },
    },
  };
}

describe('a terminal event ends the run (sessions)', () => {
  it('aborts a session that lingers after its terminal event and ends with the reported outcome', async () => {
    const log: FakeSessionLog = { stops: [], aborted: false };
    const started = Date.now();
    const { end } = await collectRun(
      startRun({
        adapter: lingeringSession(log, true),
        request: { prompt: 'x', cwd: workspace() },
        timeoutMs: 60_000,
        terminalGraceMs: 200,
      }),
    );
    expect(end).toMatchObject({ reason: 'completed', output: 'said so', sessionId: 's1' });
    expect(end.totals.usd).toBeCloseTo(0.75);
    expect(log).toEqual({ stops: [], aborted: true });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('ends with the reported outcome even when the session never settles after the abort', async () => {
    const log: FakeSessionLog = { stops: [], aborted: false };
    const started = Date.now();
    const { end } = await collectRun(
      startRun({
        adapter: lingeringSession(log, false),
        request: { prompt: 'x', cwd: workspace() },
        timeoutMs: 60_000,
        terminalGraceMs: 200,
        graceMs: 300,
      }),
    );
    expect(end).toMatchObject({ reason: 'completed', output: 'said so' });
    expect(log.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a run aborted during the terminal grace still ends as the agent said', async () => {
    const log: FakeSessionLog = { stops: [], aborted: false };
    const handle = startRun({
      adapter: lingeringSession(log, true),
      request: { prompt: 'x', cwd: workspace() },
      timeoutMs: 60_000,
      terminalGraceMs: 30_000,
      graceMs: 300,
    });
    const collected = collectRun(handle);
    setTimeout(() => handle.abort('user abort'), 100);
    const { end } = await collected;
    expect(end).toMatchObject({ reason: 'completed', output: 'said so' });
    expect(log.stops).toEqual(['cancelled']);
  });
});
