import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpAdapter } from '../../../../src/adapters/protocols/http/index.ts';
import type { HttpAdapterConfig } from '../../../../src/core/config/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';
import { type RemoteSession, type StandInRemote, startStandInRemote } from './stand-in-remote.ts';

const remotes: StandInRemote[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((r) => r.close()));
});

const config = (baseUrl: string): HttpAdapterConfig => ({
  type: 'http',
  baseUrl,
  auth: { type: 'none' },
  protocol: 'ca-http-v1',
  maxConcurrentSessions: 1,
});

/** Far longer than any of these runs may take: a run that reaches it was not ended by its terminal event. */
const RUN_TIMEOUT_MS = 60_000;

/** Runs one session against a remote that sends `records` and then holds its stream open for ever. */
async function runHeldOpen(records: [string, Record<string, unknown>][]) {
  let session: RemoteSession | undefined;
  const remote = await startStandInRemote({
    script: (s) => {
      session = s;
      for (const [type, record] of records) s.send(type, record);
      // No s.end(): the stream stays open, as the seed describes it ("for the lifetime of the run").
    },
  });
  remotes.push(remote);
  const started = Date.now();
  const { events, end } = await collectRun(
    startRun({
      adapter: httpAdapter('pi', config(remote.baseUrl)),
      request: { prompt: 'x', cwd: mkdtempSync(join(tmpdir(), 'agent-mux-http-terminal-')) },
      timeoutMs: RUN_TIMEOUT_MS,
    }),
  );
  return { events, end, remote, session, elapsedMs: Date.now() - started };
}

describe('http adapter (ca-http-v1): complete and failed end the session', () => {
  it('ends completed when the remote sends complete and keeps its stream open: stream closed, DELETE, USD once', async () => {
    const { events, end, remote, session, elapsedMs } = await runHeldOpen([
      ['progress', { type: 'progress', summary: 'working', cost: { usd: 0.2 } }],
      ['complete', { type: 'complete', output: { done: true }, cost: { usd: 0.5 } }],
    ]);
    expectWellFormedStream(events, 'pi');
    expect(end).toMatchObject({ reason: 'completed', output: { done: true } });
    expect(end.totals.usd).toBeCloseTo(0.5);
    expect(elapsedMs).toBeLessThan(10_000);
    expect(events.some((e) => e.type === 'error' && e.code === 'timeout')).toBe(false);
    expect(events.some((e) => e.type === 'error' && e.code === 'remote_unavailable')).toBe(false);
    await session?.deleted;
    expect(remote.deletedIds).toEqual([session?.id]);
    expect(remote.requests.at(-1)?.method).toBe('DELETE');
    expect(remote.requests.some((r) => r.path.endsWith('/input'))).toBe(false);
    await vi.waitFor(() => {
      expect(remote.openSessions).toBe(0);
      expect(remote.openSockets).toBe(0);
    });
  });

  it('ends failed with the reported reason when the remote sends failed and keeps its stream open', async () => {
    const { events, end, remote, elapsedMs } = await runHeldOpen([
      ['failed', { type: 'failed', reason: 'tests_failed', details: 'two fail', cost: { usd: 0.3 } }],
    ]);
    expectWellFormedStream(events, 'pi');
    expect(end).toMatchObject({ reason: 'failed', message: 'tests_failed: two fail' });
    expect(end.totals.usd).toBeCloseTo(0.3);
    expect(elapsedMs).toBeLessThan(10_000);
    expect(remote.deletedIds).toHaveLength(1);
    await vi.waitFor(() => expect(remote.openSockets).toBe(0));
  });
});
