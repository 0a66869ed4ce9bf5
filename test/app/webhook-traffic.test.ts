import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDispatchLoop } from '../../src/app/dispatch-loop.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { createWebhookTraffic } from '../../src/app/webhook-traffic.ts';
import { webhookPayload } from '../support/webhook-payload.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** Settles `promise` into a flag, to see whether it resolved by a given (fake) time. */
function track(promise: Promise<void>): { done: boolean } {
  const state = { done: false };
  void promise.then(() => {
    state.done = true;
  });
  return state;
}

describe('createWebhookTraffic', () => {
  it('is quiet at once when no webhook arrived lately', async () => {
    vi.useFakeTimers();
    const traffic = createWebhookTraffic({ gapMs: 20, maxWaitMs: 250 }, () => Date.now());
    const quiet = track(traffic.quiet());
    await vi.advanceTimersByTimeAsync(0);
    expect(quiet.done).toBe(true);
  });

  it('waits until no webhook arrived for the gap', async () => {
    vi.useFakeTimers();
    const traffic = createWebhookTraffic({ gapMs: 20, maxWaitMs: 250 }, () => Date.now());
    traffic.received();
    const quiet = track(traffic.quiet());
    await vi.advanceTimersByTimeAsync(10);
    traffic.received(); // the burst goes on: 20 ms from here
    await vi.advanceTimersByTimeAsync(19);
    expect(quiet.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(quiet.done).toBe(true);
  });

  it('a steady stream holds callers once, for the longest wait, until a gap ends it', async () => {
    vi.useFakeTimers();
    const traffic = createWebhookTraffic({ gapMs: 20, maxWaitMs: 250 }, () => Date.now());
    const stream = setInterval(() => traffic.received(), 5);
    traffic.received();
    const quiet = track(traffic.quiet());
    await vi.advanceTimersByTimeAsync(249);
    expect(quiet.done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(quiet.done).toBe(true);
    // The same burst goes on: later callers pass at once (one wait per burst, not one per event).
    const later = track(traffic.quiet());
    await vi.advanceTimersByTimeAsync(0);
    expect(later.done).toBe(true);
    clearInterval(stream);
    // A gap ends the burst (nobody asked meanwhile); the next burst holds callers again.
    await vi.advanceTimersByTimeAsync(25);
    traffic.received();
    const next = track(traffic.quiet());
    await vi.advanceTimersByTimeAsync(10);
    expect(next.done).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(next.done).toBe(true);
  });
});

describe('the dispatcher lets a burst of webhooks go first', () => {
  it('takes a recorded event but dispatches it only once `quiet` resolves', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-mux-quiet-'));
    const store = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
    try {
      await store.migrate();
      const payload = webhookPayload('issue_comment', 'edited', { body: '@agent fix it' });
      await store.recordEvent({ deliveryId: 'd-1', name: 'issue_comment', payload, installationId: 1, receivedAt: 1 });
      let release = () => {};
      const waits: string[] = [];
      const loop = createDispatchLoop({
        store,
        access: {
          api: () => Promise.reject(new Error('no GitHub call expected')),
          token: () => Promise.reject(new Error('no token expected')),
        },
        selfLogins: ['agent-mux[bot]'],
        registry: () => {
          throw new Error('no registry expected');
        },
        log: () => {},
        quiet: () => {
          waits.push('quiet');
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        },
      });
      const result = loop.one();
      const settled = track(result.then(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(waits).toEqual(['quiet']);
      expect(settled.done).toBe(false);
      release();
      expect(await result).toMatchObject({ kind: 'ignored' });
      expect(await store.takeEvent()).toBeUndefined(); // completed once dispatched
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
