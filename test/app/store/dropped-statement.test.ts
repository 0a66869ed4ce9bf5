/**
 * One connection dropped at a chosen statement (issue 34): the real PostgreSQL ends the backend
 * that runs it (`pg_terminate_backend`, as a restart or failover ends it) while the statement waits
 * on a lock the test holds, so it is known to have done nothing. The store tries it again on a new
 * connection: the operation takes effect exactly once and its caller sees no error.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPostgresRunStore } from '../../../src/app/store/postgres-run-store.ts';
import type { Lease, RunStore, StoredRun } from '../../../src/app/store/run-store.ts';
import { isTransientError } from '../../../src/app/store/transient-error.ts';
import { DATABASE_URL, endConnections, postgresReachable } from '../../app-faults/fault-postgres.ts';
import { type AckDroppingProxy, startAckDroppingProxy } from '../../support/ack-dropping-proxy.ts';
import { makeJob, NO_LIMITS } from './run-store-fixtures.ts';

const url = DATABASE_URL;
const available = await postgresReachable();
const admin = new pg.Pool({ connectionString: url, max: 3 });
admin.on('error', () => {});
afterAll(async () => {
  await admin.end();
});

let schema = '';
let store: RunStore | undefined;
let retries: string[] = [];
afterEach(async () => {
  await store?.close();
  store = undefined;
  if (schema) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

async function openStore(): Promise<RunStore> {
  schema = `agent_mux_drop_${randomBytes(6).toString('hex')}`;
  retries = [];
  store = createPostgresRunStore({
    connectionString: url,
    schema,
    maxConnections: 4,
    onRetry: (error, attempt) => retries.push(`${attempt}: ${error instanceof Error ? error.message : error}`),
  });
  await store.migrate();
  return store;
}

/**
 * Runs `operation` while a side transaction holds `lock` (a row or table lock its statement needs),
 * ends the backend whose statement starting with `statement` waits on it, then lets go of the lock.
 * Resolves with the operation's result and the pid ended.
 */
async function droppedAt<T>(
  lock: string,
  statement: string,
  operation: () => Promise<T>,
): Promise<{ result: T; ended: number }> {
  const locker = new pg.Client({ connectionString: url });
  locker.on('error', () => {});
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query(lock);
    const running = operation();
    running.catch(() => {});
    let ended: number | undefined;
    for (let i = 0; i < 400 && ended === undefined; i++) {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND starts_with(query, $1)`,
        [statement],
      );
      ended = rows[0]?.pid;
      if (ended === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (ended === undefined) throw new Error(`no backend waited at "${statement}"`);
    const { rows } = await admin.query<{ done: boolean }>('SELECT pg_terminate_backend($1) AS done', [ended]);
    expect(rows[0]?.done).toBe(true);
    await locker.query('COMMIT');
    const result = await running;
    // The store met the ended connection and tried the statement again, once.
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/terminat/i);
    return { result, ended };
  } finally {
    await locker.end().catch(() => {});
  }
}

async function claimedRun(s: RunStore): Promise<{ run: StoredRun; lease: Lease }> {
  await s.enqueue({ job: makeJob({ number: 1 }), installationId: 1, adapter: 'demo', perIssue: 'queue' });
  const claimed = await s.claim('w1', 60_000, NO_LIMITS);
  if (!claimed) throw new Error('claim failed');
  return claimed;
}

const rowLock = (id: string) => `SELECT id FROM ${schema}.runs WHERE id = '${id}' FOR UPDATE`;

describe.runIf(available)('a connection dropped at one statement', () => {
  it('recordEvent: the delivery is recorded once and can be taken', async () => {
    const s = await openStore();
    const event = { deliveryId: 'd-1', name: 'issue_comment', payload: { n: 1 }, installationId: 1, receivedAt: 1 };
    const { result } = await droppedAt(
      `LOCK TABLE ${schema}.deliveries IN SHARE MODE`,
      `INSERT INTO ${schema}.deliveries`,
      () => s.recordEvent(event, 'issue_comment:1:created'),
    );
    expect(result).toBe('recorded');
    expect((await s.takeEvent())?.deliveryId).toBe('d-1');
    expect(await s.recordEvent(event, 'issue_comment:1:created')).toBe('redelivery');
  });

  it('enqueue: the run is queued once and its event completed with it', async () => {
    const s = await openStore();
    await s.recordEvent({ deliveryId: 'd-1', name: 'issue_comment', payload: {}, installationId: 1, receivedAt: 1 });
    await s.takeEvent(10);
    const { result } = await droppedAt(`LOCK TABLE ${schema}.runs IN SHARE MODE`, `INSERT INTO ${schema}.runs`, () =>
      s.enqueue({
        job: makeJob({ number: 1 }),
        installationId: 1,
        adapter: 'demo',
        perIssue: 'queue',
        deliveryId: 'd-1',
      }),
    );
    expect(result.created).toBe(true);
    expect(await s.list()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await s.takeEvent()).toBeUndefined();
  });

  it('update: the check run and comment ids are saved', async () => {
    const s = await openStore();
    const { run, lease } = await claimedRun(s);
    await droppedAt(rowLock(run.id), `UPDATE ${schema}.runs SET state = coalesce`, () =>
      s.update(lease, { state: 'awaiting_approval', checkRunId: 41, commentId: 42 }),
    );
    expect(await s.get(run.id)).toMatchObject({ state: 'awaiting_approval', checkRunId: 41, commentId: 42 });
  });

  it('renew: the lease is extended and stays the worker’s', async () => {
    const s = await openStore();
    const { run, lease } = await claimedRun(s);
    const { result } = await droppedAt(rowLock(run.id), `UPDATE ${schema}.runs SET lease_expires_at`, () =>
      s.renew(lease, 600_000),
    );
    expect(result.expiresAt).toBeGreaterThan(lease.expiresAt);
    expect((await s.get(run.id))?.leaseExpiresAt).toBe(result.expiresAt);
    await s.finish(result, { state: 'succeeded', conclusion: 'success' });
  });

  it('finish: the run is concluded and its lease released', async () => {
    const s = await openStore();
    const { run, lease } = await claimedRun(s);
    await droppedAt(rowLock(run.id), `UPDATE ${schema}.runs SET state = $1, conclusion`, () =>
      s.finish(lease, { state: 'succeeded', conclusion: 'success' }),
    );
    expect(await s.get(run.id)).toMatchObject({ state: 'succeeded', conclusion: 'success', leaseToken: undefined });
    expect(await s.expiredRuns(Number.MAX_SAFE_INTEGER)).toEqual([]);
  });

  it('savePendingApproval: the approval is pending, once', async () => {
    const s = await openStore();
    const { run } = await claimedRun(s);
    const approval = { approvalId: 'ap-1', toolName: 'Bash', commitSha: 'abc', commentId: 5, askedAt: 'x' };
    await droppedAt(
      `LOCK TABLE ${schema}.pending_approvals IN SHARE MODE`,
      `INSERT INTO ${schema}.pending_approvals`,
      () => s.savePendingApproval(run.id, run.issueKey, approval),
    );
    expect((await s.pendingApprovals({ runId: run.id })).map((a) => a.approvalId)).toEqual(['ap-1']);
  });

  it('addAnswer: the answer is stored once, with its event completed', async () => {
    const s = await openStore();
    await s.recordEvent({ deliveryId: 'd-2', name: 'check_run', payload: {}, installationId: 1, receivedAt: 1 });
    await s.takeEvent(10);
    await droppedAt(`LOCK TABLE ${schema}.answers IN SHARE MODE`, `INSERT INTO ${schema}.answers`, () =>
      s.addAnswer({ kind: 'void', issueKey: 'octo/demo#1', reason: 'pushed' }, 'd-2'),
    );
    expect(await s.takeAnswers('octo/demo#1')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await s.takeEvent()).toBeUndefined();
  });

  it('a storm of ended connections (every 50–150 ms for 4 s, under 8 busy callers) crashes nothing and leaves every operation done or failed with a transient error', async () => {
    schema = `agent_mux_drop_${randomBytes(6).toString('hex')}`;
    const applicationName = `agent-mux-storm-${schema}`;
    const s = createPostgresRunStore({
      connectionString: `${url}?application_name=${applicationName}`,
      schema,
      maxConnections: 10,
    });
    store = s;
    await s.migrate();
    // Before the fix a connection ended in the chunk that made it ready emitted 'error' with no
    // listener: an uncaught exception here (vitest fails the file) and a crashed app in production.
    let storming = true;
    let ended = 0;
    const storm = (async () => {
      while (storming) {
        ended += await endConnections(admin, applicationName);
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    })();
    let done = 0;
    const failures: string[] = [];
    const caller = async (i: number) => {
      const until = Date.now() + 4_000;
      for (let k = 0; Date.now() < until; k++) {
        const deliveryId = `d-${i}-${k}`;
        try {
          await s.recordEvent({ deliveryId, name: 'issue_comment', payload: {}, installationId: 1, receivedAt: k });
          await s.enqueue({
            job: makeJob({ number: i * 10_000 + k }),
            installationId: 1,
            adapter: 'demo',
            perIssue: 'queue',
            deliveryId,
          });
          const claimed = await s.claim(`w${i}`, 60_000, NO_LIMITS);
          if (claimed) {
            const lease = await s.renew(claimed.lease, 60_000);
            await s.update(lease, { checkRunId: k + 1 });
            await s.finish(lease, { state: 'succeeded', conclusion: 'success' });
          }
          done++;
        } catch (error) {
          if (!isTransientError(error)) throw error;
          failures.push(String(error));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => caller(i)));
    storming = false;
    await storm;
    expect(ended).toBeGreaterThan(10);
    expect(done).toBeGreaterThan(0);
    // After the storm the store works at once.
    expect(await s.recordEvent({ deliveryId: 'after', name: 'x', payload: {}, installationId: 1, receivedAt: 1 })).toBe(
      'recorded',
    );
    console.info(`storm: ${ended} connections ended; ${done} sequences done, ${failures.length} failed transiently`);
  });
});

describe.runIf(available)('an acknowledgement lost after the database did the work', () => {
  let proxy: AckDroppingProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  /** A store through the proxy (the one under test) and one straight to the server (the test's view). */
  async function throughProxy(): Promise<{ s: RunStore; direct: RunStore; p: AckDroppingProxy }> {
    const direct = await openStore();
    proxy = await startAckDroppingProxy(url);
    const s = createPostgresRunStore({
      connectionString: proxy.url,
      schema,
      maxConnections: 2,
      onRetry: (error, attempt) => retries.push(`${attempt}: ${error instanceof Error ? error.message : error}`),
    });
    const close = direct.close.bind(direct);
    direct.close = async () => {
      await s.close();
      await close();
    };
    return { s, direct, p: proxy };
  }

  it('takeAnswers: the answers marked taken are returned by the retry, not lost; then they are gone', async () => {
    const { s, direct, p } = await throughProxy();
    await direct.addAnswer({ kind: 'void', issueKey: 'octo/demo#1', reason: 'pushed' });
    const dropped = p.dropNext('UPDATE 1');
    const taken = await s.takeAnswers('octo/demo#1');
    await dropped;
    expect(retries).toHaveLength(1);
    expect(taken.map((a) => a.kind)).toEqual(['void']);
    expect(await direct.takeAnswers('octo/demo#1')).toEqual([]);
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.answers`);
    expect(rows[0]?.n).toBe(0);
  });

  it('addAnswer: a committed answer whose COMMIT was not acknowledged is not recorded twice', async () => {
    const { s, direct, p } = await throughProxy();
    await direct.recordEvent({ deliveryId: 'd-3', name: 'check_run', payload: {}, installationId: 1, receivedAt: 1 });
    await direct.takeEvent(10);
    const dropped = p.dropNext('COMMIT');
    await s.addAnswer({ kind: 'void', issueKey: 'octo/demo#1', reason: 'pushed' }, 'd-3');
    await dropped;
    expect(retries).toHaveLength(1);
    expect(await direct.takeAnswers('octo/demo#1')).toHaveLength(1);
  });

  it('enqueue: a queued run whose COMMIT was not acknowledged is queued once', async () => {
    const { s, direct, p } = await throughProxy();
    await direct.recordEvent({
      deliveryId: 'd-4',
      name: 'issue_comment',
      payload: {},
      installationId: 1,
      receivedAt: 1,
    });
    await direct.takeEvent(10);
    const dropped = p.dropNext('COMMIT');
    const { run } = await s.enqueue({
      job: makeJob({ number: 4 }),
      installationId: 1,
      adapter: 'demo',
      perIssue: 'queue',
      deliveryId: 'd-4',
    });
    await dropped;
    expect(retries).toHaveLength(1);
    expect((await direct.list()).map((r) => r.id)).toEqual([run.id]);
  });

  it('claim: a claim whose COMMIT was not acknowledged returns the run it claimed, and claims no other', async () => {
    const { s, direct, p } = await throughProxy();
    const first = await direct.enqueue({
      job: makeJob({ number: 5 }),
      installationId: 1,
      adapter: 'demo',
      perIssue: 'queue',
    });
    await direct.enqueue({ job: makeJob({ number: 6 }), installationId: 1, adapter: 'demo', perIssue: 'queue' });
    const dropped = p.dropNext('COMMIT');
    const claimed = await s.claim('w1', 60_000, NO_LIMITS);
    await dropped;
    expect(retries).toHaveLength(1);
    expect(claimed?.run.id).toBe(first.run.id);
    expect((await direct.list()).map((r) => [r.issueKey, r.state])).toEqual([
      ['octo/demo#5', 'running'],
      ['octo/demo#6', 'queued'],
    ]);
    // The lease returned is the one stored: the worker can renew and finish it.
    if (claimed) await s.finish(claimed.lease, { state: 'succeeded', conclusion: 'success' });
  });
});
