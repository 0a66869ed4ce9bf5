import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatchLoop } from '../../src/app/dispatch-loop.ts';
import type { InstallationAccess } from '../../src/app/installation-access.ts';
import { createSqliteRunStore } from '../../src/app/store/sqlite-run-store.ts';
import { webhookPayload } from '../support/webhook-payload.ts';

/** A GitHub that fails each call with the next of `errors`. */
function failingAccess(errors: Error[]): InstallationAccess {
  const next = () => Promise.reject(errors.shift() ?? new Error('no more calls expected'));
  return { api: next, token: next } as unknown as InstallationAccess;
}

/** Past a wait of 0 ms (an event may be taken again once its time is strictly past). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const transient = () => Object.assign(new Error('Server Error: 502'), { status: 502 });

describe('the dispatcher retries an event whose dispatch failed transiently', () => {
  it('puts it back after a transient failure, and drops it after any other, saying so', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-mux-retry-'));
    const store = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
    const lines: string[] = [];
    try {
      await store.migrate();
      const payload = webhookPayload('issue_comment', 'created', { body: '@agent fix it' });
      await store.recordEvent({ deliveryId: 'd-1', name: 'issue_comment', payload, installationId: 1, receivedAt: 1 });
      const loop = createDispatchLoop(
        {
          store,
          access: failingAccess([transient(), transient(), new Error('Bad credentials')]),
          selfLogins: ['agent-mux[bot]'],
          registry: () => {
            throw new Error('no registry expected');
          },
          log: (line) => lines.push(line),
        },
        { retryDelaysMs: [0, 0] },
      );
      const first = await loop.one();
      expect(first).toEqual({ kind: 'ignored', reason: 'Server Error: 502 (dispatched again in 0 s)' });
      expect(lines.at(-1)).toBe(
        'delivery d-1 (issue_comment) failed (attempt 1): Server Error: 502; dispatched again in 0 s',
      );
      await tick();
      expect(await loop.one()).toMatchObject({ kind: 'ignored', reason: expect.stringContaining('dispatched again') });
      await tick();
      // The third failure is not transient: the event is dropped, and the log says after how many tries.
      expect(await loop.one()).toEqual({ kind: 'ignored', reason: 'Bad credentials' });
      expect(lines.at(-1)).toBe('delivery d-1 (issue_comment) failed 3 times: Bad credentials; dropped');
      expect(await store.takeEvent()).toBeUndefined();
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('drops it once its waits are used up', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-mux-retry-'));
    const store = createSqliteRunStore({ file: join(root, 'agent-mux.db') });
    const lines: string[] = [];
    try {
      await store.migrate();
      const payload = webhookPayload('issue_comment', 'created', { body: '@agent fix it' });
      await store.recordEvent({ deliveryId: 'd-2', name: 'issue_comment', payload, installationId: 1, receivedAt: 1 });
      const loop = createDispatchLoop(
        {
          store,
          access: failingAccess([transient(), transient()]),
          selfLogins: ['agent-mux[bot]'],
          registry: () => {
            throw new Error('no registry expected');
          },
          log: (line) => lines.push(line),
        },
        { retryDelaysMs: [0] },
      );
      await loop.one();
      await tick();
      expect(await loop.one()).toEqual({ kind: 'ignored', reason: 'Server Error: 502' });
      expect(lines.at(-1)).toBe('delivery d-2 (issue_comment) failed 2 times: Server Error: 502; dropped');
      expect(await store.takeEvent()).toBeUndefined();
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
