import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidRunStateError } from '../../../src/app/store/invalid-run-state-error.ts';
import type { ConcurrencyLimits, Lease, RunStore, StoredEvent } from '../../../src/app/store/run-store.ts';
import { StaleLeaseError } from '../../../src/app/store/stale-lease-error.ts';
import type { PendingApproval } from '../../../src/github/approvals/github-approval-channel.ts';
import { describeStoredConversations } from './conversation-contract.ts';
import { claimAll, makeJob, NO_LIMITS, type StoreBackend } from './run-store-fixtures.ts';

/**
 * The contract every `RunStore` keeps, run against each backend. `makeBackend` gives a fresh, empty
 * database per test; `open()` on it gives another handle (a separate connection or file handle).
 */
export function describeRunStore(name: string, makeBackend: () => Promise<StoreBackend>): void {
  describe(`RunStore contract: ${name}`, () => {
    let backend: StoreBackend;
    let store: RunStore;

    beforeEach(async () => {
      backend = await makeBackend();
      store = backend.open();
      await store.migrate();
    });
    afterEach(async () => {
      await backend.dispose();
    });

    const enqueue = async (spec: {
      repo?: string;
      number?: number;
      adapter?: string;
      perIssue?: 'queue' | 'cancel';
      conversationKey?: string;
      installationId?: number;
    }) =>
      (
        await store.enqueue({
          job: makeJob(spec),
          installationId: spec.installationId ?? 42,
          adapter: spec.adapter ?? 'demo',
          perIssue: spec.perIssue ?? 'queue',
          ...(spec.conversationKey ? { conversationKey: spec.conversationKey } : {}),
        })
      ).run;
    const claim = async (limits: ConcurrencyLimits = NO_LIMITS, leaseMs = 60_000) => store.claim('w1', leaseMs, limits);
    const mustClaim = async (limits: ConcurrencyLimits = NO_LIMITS) => {
      const claimed = await claim(limits);
      if (!claimed) throw new Error('expected a run to be claimed');
      return claimed;
    };
    const event = (deliveryId: string, receivedAt: number): StoredEvent => ({
      deliveryId,
      name: 'issue_comment',
      payload: { action: 'created', comment: { body: `/agent ${deliveryId}` } },
      installationId: deliveryId === 'd-no-installation' ? undefined : 42,
      receivedAt,
    });

    describe('migrate', () => {
      it('is idempotent, also from a second handle', async () => {
        await store.migrate();
        await backend.open().migrate();
        expect(await store.list()).toEqual([]);
      });
    });

    describe('events', () => {
      it('records a delivery once: a redelivery is not queued again', async () => {
        expect(await store.recordEvent(event('d1', 1000))).toBe('recorded');
        expect(await store.recordEvent(event('d1', 2000))).toBe('redelivery');
        expect(await store.takeEvent()).toEqual(event('d1', 1000));
        expect(await store.takeEvent()).toBeUndefined();
        expect(await store.recordEvent(event('d1', 3000))).toBe('redelivery');
        expect(await store.takeEvent()).toBeUndefined();
      });

      it('records a second delivery about the same subject as a duplicate, and queues only the first', async () => {
        const subject = 'issue_comment:77:created';
        expect(await store.recordEvent(event('d1', 1000), subject)).toBe('recorded');
        expect(await store.recordEvent(event('d2', 2000), subject)).toBe('duplicate');
        expect(await store.recordEvent(event('d2', 2500), subject)).toBe('redelivery');
        expect(await store.recordEvent(event('d3', 3000), 'issue_comment:78:created')).toBe('recorded');
        expect(await store.recordEvent(event('d4', 4000))).toBe('recorded');
        const taken = [await store.takeEvent(), await store.takeEvent(), await store.takeEvent()];
        expect(taken.map((e) => e?.deliveryId)).toEqual(['d1', 'd3', 'd4']);
        expect(await store.takeEvent()).toBeUndefined();
        // The subject is remembered after its event was taken.
        expect(await store.recordEvent(event('d5', 5000), subject)).toBe('duplicate');
        expect(await store.takeEvent()).toBeUndefined();
      });

      it('records one of several concurrent deliveries about one subject, across handles', async () => {
        const handles = [store, backend.open(), backend.open(), backend.open()];
        const outcomes = await Promise.all(
          handles.map((handle, i) => handle.recordEvent(event(`c${i}`, 1000 + i), 'review:9:submitted')),
        );
        expect(outcomes.filter((o) => o === 'recorded')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(3);
        expect(await store.takeEvent()).toBeDefined();
        expect(await store.takeEvent()).toBeUndefined();
      });

      it('records concurrent deliveries on one handle as each alone would be: redeliveries and subjects among them', async () => {
        const [first, second, again, third, fourth] = await Promise.all([
          store.recordEvent(event('b1', 1000)),
          store.recordEvent(event('b2', 1001), 'comment:1:created'),
          store.recordEvent(event('b1', 1002)),
          store.recordEvent(event('b3', 1003), 'comment:1:created'),
          store.recordEvent(event('b4', 1004)),
        ]);
        // Which of two concurrent writes comes first is the store's to decide; one of each pair is new.
        expect([first, again].sort()).toEqual(['recorded', 'redelivery']);
        expect([second, third].sort()).toEqual(['duplicate', 'recorded']);
        expect(fourth).toBe('recorded');
        const taken = [await store.takeEvent(), await store.takeEvent(), await store.takeEvent()];
        expect(taken.map((e) => e?.deliveryId).sort()).toEqual(['b1', second === 'recorded' ? 'b2' : 'b3', 'b4']);
        expect(await store.takeEvent()).toBeUndefined();
      });

      it('gives the oldest unread event first and keeps payloads and missing installations', async () => {
        await store.recordEvent(event('d1', 1000));
        await store.recordEvent(event('d-no-installation', 1001));
        await store.recordEvent(event('d3', 1002));
        const taken = [await store.takeEvent(), await store.takeEvent(), await store.takeEvent()];
        expect(taken.map((e) => e?.deliveryId)).toEqual(['d1', 'd-no-installation', 'd3']);
        expect(taken[1]).toEqual(event('d-no-installation', 1001));
        expect(taken[1]?.installationId).toBeUndefined();
      });

      it('hands each event to exactly one of several handles', async () => {
        for (let i = 0; i < 40; i++) await store.recordEvent(event(`d${i}`, 1000 + i));
        const handles = [store, backend.open(), backend.open(), backend.open()];
        const takeAll = async (handle: RunStore) => {
          const ids: string[] = [];
          for (let e = await handle.takeEvent(); e; e = await handle.takeEvent()) ids.push(e.deliveryId);
          return ids;
        };
        const taken = (await Promise.all(handles.map(takeAll))).flat();
        expect(taken).toHaveLength(40);
        expect(new Set(taken).size).toBe(40);
      });
    });

    describe('event leases', () => {
      const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
      const enqueueFor = (deliveryId: string, number = 7) =>
        store.enqueue({
          job: makeJob({ number, id: deliveryId }),
          installationId: 42,
          adapter: 'demo',
          perIssue: 'cancel',
          deliveryId,
        });

      it('keeps a taken event until its outcome is stored: a reader that died leaves it to be taken again', async () => {
        await store.recordEvent(event('d1', 1000));
        expect((await store.takeEvent(50))?.deliveryId).toBe('d1');
        expect(await backend.open().takeEvent(50)).toBeUndefined();
        await sleep(80);
        // The lease expired (the reader was killed): another reader takes it.
        expect((await backend.open().takeEvent(60_000))?.deliveryId).toBe('d1');
        await store.completeEvent('d1');
        await sleep(80);
        expect(await store.takeEvent(50)).toBeUndefined();
        // A redelivery of a completed delivery is still ignored.
        expect(await store.recordEvent(event('d1', 3000))).toBe('redelivery');
        expect(await store.takeEvent()).toBeUndefined();
      });

      it('queues a delivery’s run and completes its event in one transaction, once however often it is enqueued', async () => {
        await store.recordEvent(event('d1', 1000));
        expect((await store.takeEvent(10))?.deliveryId).toBe('d1');
        const first = await enqueueFor('d1');
        expect(first.created).toBe(true);
        await sleep(30);
        expect(await store.takeEvent()).toBeUndefined();
        // A second reader that took the event before the lease ran out enqueues it too: the first run stands,
        // and its `perIssue: cancel` does not cancel it.
        const again = await backend.open().enqueue({
          job: makeJob({ number: 7, id: 'd1' }),
          installationId: 42,
          adapter: 'demo',
          perIssue: 'cancel',
          deliveryId: 'd1',
        });
        expect(again).toEqual({ run: first.run, cancelled: [], created: false });
        expect(await store.list()).toHaveLength(1);
        expect((await store.get(first.run.id))?.cancelRequested).toBe(false);
      });

      it('queues one run for one delivery enqueued concurrently by several handles', async () => {
        const handles = [store, backend.open(), backend.open(), backend.open()];
        const results = await Promise.all(
          handles.map((handle) =>
            handle.enqueue({
              job: makeJob({ number: 7, id: 'd9' }),
              installationId: 42,
              adapter: 'demo',
              perIssue: 'cancel',
              deliveryId: 'd9',
            }),
          ),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        const runs = await store.list();
        expect(runs).toHaveLength(1);
        expect(runs[0]?.cancelRequested).toBe(false);
      });

      it('records no answer for a delivery whose event is gone (its answer was recorded with it)', async () => {
        await store.recordEvent(event('d1', 1000));
        await store.takeEvent(10);
        await store.addAnswer({ kind: 'void', issueKey: 'o/r#7', reason: 'pushed' }, 'd1');
        await store.addAnswer({ kind: 'void', issueKey: 'o/r#7', reason: 'pushed' }, 'd1');
        expect(await store.takeAnswers('o/r#7')).toHaveLength(1);
      });

      it('completes an event with its answer in one transaction', async () => {
        await store.recordEvent(event('d1', 1000));
        await store.takeEvent(10);
        await store.addAnswer({ kind: 'void', issueKey: 'o/r#7', reason: 'pushed' }, 'd1');
        await sleep(30);
        expect(await store.takeEvent()).toBeUndefined();
        expect(await store.takeAnswers('o/r#7')).toHaveLength(1);
      });

      it('gives the events of one order key one at a time, oldest first, and other keys meanwhile', async () => {
        const keyed = (id: string, at: number, orderKey: string): StoredEvent => ({ ...event(id, at), orderKey });
        await store.recordEvent(keyed('a1', 1000, 'o/r#1'));
        await store.recordEvent(keyed('a2', 1001, 'o/r#1'));
        await store.recordEvent(keyed('b1', 1002, 'o/r#2'));
        await store.recordEvent(event('n1', 1003));
        const first = await store.takeEvent();
        expect(first).toEqual(keyed('a1', 1000, 'o/r#1'));
        // a2 waits for a1; b1 and the unkeyed event do not.
        expect((await store.takeEvent())?.deliveryId).toBe('b1');
        expect((await store.takeEvent())?.deliveryId).toBe('n1');
        expect(await store.takeEvent()).toBeUndefined();
        await store.completeEvent('a1');
        expect((await store.takeEvent())?.deliveryId).toBe('a2');
      });

      it('puts a failed event back: taken again after its wait, its attempts counted, its order key waiting behind it', async () => {
        const keyed = (id: string, at: number): StoredEvent => ({ ...event(id, at), orderKey: 'o/r#1' });
        await store.recordEvent(keyed('a1', 1000));
        await store.recordEvent(keyed('a2', 1001));
        expect((await store.takeEvent(60_000))?.attempts).toBeUndefined();
        await store.retryEvent('a1', Date.now() + 80);
        // Neither it (its wait) nor the next event of its issue (order) is given out meanwhile.
        expect(await backend.open().takeEvent()).toBeUndefined();
        await sleep(120);
        const again = await backend.open().takeEvent(60_000);
        expect(again).toMatchObject({ deliveryId: 'a1', attempts: 1, payload: { comment: { body: '/agent a1' } } });
        await store.retryEvent('a1', Date.now() - 1);
        expect(await store.takeEvent(60_000)).toMatchObject({ deliveryId: 'a1', attempts: 2 });
        await store.completeEvent('a1');
        // An event no longer stored is not brought back.
        await store.retryEvent('a1', Date.now() - 1);
        expect((await store.takeEvent())?.deliveryId).toBe('a2');
        expect(await store.takeEvent()).toBeUndefined();
      });
    });

    describe('enqueue, claim, finish', () => {
      it('queues a run with its keys and job', async () => {
        const job = makeJob({ repo: 'octo/app', number: 12 });
        const { run, cancelled } = await store.enqueue({
          job,
          installationId: 42,
          adapter: 'claude-code',
          perIssue: 'queue',
        });
        expect(cancelled).toEqual([]);
        expect(run).toMatchObject({
          job,
          installationId: 42,
          state: 'queued',
          repoKey: 'octo/app',
          issueKey: 'octo/app#12',
          adapter: 'claude-code',
          attempts: 0,
          leaseOwner: undefined,
          leaseToken: undefined,
          leaseExpiresAt: undefined,
          checkRunId: undefined,
          commentId: undefined,
          cancelRequested: false,
          conclusion: undefined,
          reason: undefined,
        });
        expect(run.createdAt).toBe(run.updatedAt);
        expect(await store.get(run.id)).toEqual(run);
        expect(await store.get('no-such-run')).toBeUndefined();
      });

      it('keys a run without an issue as owner/repo#, and keeps an undefined installation', async () => {
        const { run } = await store.enqueue({
          job: makeJob({ repo: 'octo/app' }),
          installationId: undefined,
          adapter: 'demo',
          perIssue: 'queue',
        });
        expect(run.issueKey).toBe('octo/app#');
        expect((await store.get(run.id))?.installationId).toBeUndefined();
      });

      it('claims the oldest queued run, leases it, and finishes it', async () => {
        const first = await enqueue({ number: 1 });
        await enqueue({ number: 2 });
        const { run, lease } = await mustClaim();
        expect(run.id).toBe(first.id);
        expect(run).toMatchObject({ state: 'running', leaseOwner: 'w1', leaseToken: lease.leaseToken });
        expect(run.leaseEpoch).toBeGreaterThan(0);
        expect(lease).toMatchObject({ runId: first.id, workerId: 'w1', leaseEpoch: run.leaseEpoch });
        expect(run.leaseExpiresAt).toBe(lease.expiresAt);

        await store.finish(lease, { state: 'succeeded', conclusion: 'success', reason: 'done' });
        const done = await store.get(first.id);
        expect(done).toMatchObject({
          state: 'succeeded',
          conclusion: 'success',
          reason: 'done',
          leaseOwner: undefined,
          leaseToken: undefined,
          leaseExpiresAt: undefined,
        });
        await expect(store.finish(lease, { state: 'failed', conclusion: 'failure' })).rejects.toSatisfy(
          StaleLeaseError.isInstance,
        );
      });

      it('returns undefined when nothing is queued', async () => {
        expect(await claim()).toBeUndefined();
      });

      it('gives every claim a lease epoch higher than any before', async () => {
        for (let i = 0; i < 5; i++) await enqueue({ number: i });
        const tokens = [];
        for (let i = 0; i < 5; i++) tokens.push((await mustClaim()).lease.leaseEpoch);
        expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
        expect(new Set(tokens).size).toBe(5);
      });

      it('records check run and comment ids and moves between running and awaiting_approval', async () => {
        await enqueue({ number: 1 });
        const { run, lease } = await mustClaim();
        await store.update(lease, { checkRunId: 9_000_000_001, commentId: 77 });
        await store.update(lease, { state: 'awaiting_approval' });
        expect(await store.get(run.id)).toMatchObject({
          state: 'awaiting_approval',
          checkRunId: 9_000_000_001,
          commentId: 77,
        });
        await store.update(lease, { state: 'running' });
        expect((await store.get(run.id))?.state).toBe('running');
      });

      it.each([{ state: 'succeeded' as const }, { state: 'queued' as const }])(
        'refuses update to state $state',
        async ({ state }) => {
          await enqueue({ number: 1 });
          const { lease } = await mustClaim();
          await expect(store.update(lease, { state })).rejects.toSatisfy(InvalidRunStateError.isInstance);
        },
      );

      it.each([{ state: 'running' as const }, { state: 'queued' as const }])(
        'refuses finish to non-final state $state',
        async ({ state }) => {
          await enqueue({ number: 1 });
          const { lease } = await mustClaim();
          await expect(store.finish(lease, { state, conclusion: 'x' })).rejects.toSatisfy(
            InvalidRunStateError.isInstance,
          );
        },
      );

      it('renews a lease', async () => {
        await enqueue({ number: 1 });
        const claimed = await store.claim('w1', 1_000, NO_LIMITS);
        if (!claimed) throw new Error('claim failed');
        const { run, lease } = claimed;
        const renewed = await store.renew(lease, 3_600_000);
        expect(renewed).toMatchObject({ ...lease, expiresAt: renewed.expiresAt });
        expect(renewed.expiresAt).toBeGreaterThanOrEqual(lease.expiresAt + 3_599_000);
        expect((await store.get(run.id))?.leaseExpiresAt).toBe(renewed.expiresAt);
      });

      it('lists runs by state and issue, in created order', async () => {
        const a = await enqueue({ number: 1 });
        const b = await enqueue({ number: 2 });
        const c = await enqueue({ number: 1 });
        const { lease } = await mustClaim();
        await store.finish(lease, { state: 'failed', conclusion: 'failure' });
        expect((await store.list()).map((r) => r.id)).toEqual([a.id, b.id, c.id]);
        expect((await store.list({ states: ['queued'] })).map((r) => r.id)).toEqual([b.id, c.id]);
        expect((await store.list({ states: ['failed', 'succeeded'] })).map((r) => r.id)).toEqual([a.id]);
        expect((await store.list({ issueKey: 'octo/demo#1' })).map((r) => r.id)).toEqual([a.id, c.id]);
        expect((await store.list({ states: ['queued'], issueKey: 'octo/demo#1' })).map((r) => r.id)).toEqual([c.id]);
        expect(await store.list({ states: [] })).toEqual([]);
      });

      it('is durable: another handle sees what one wrote', async () => {
        const run = await enqueue({ number: 1 });
        const other = backend.open();
        expect(await other.get(run.id)).toEqual(run);
        const claimed = await other.claim('w2', 60_000, NO_LIMITS);
        expect(claimed?.run.id).toBe(run.id);
        expect((await store.get(run.id))?.leaseOwner).toBe('w2');
      });
    });

    describe('one active run per issue', () => {
      it('keeps a second run of an issue queued until the first finishes', async () => {
        const first = await enqueue({ number: 1 });
        const second = await enqueue({ number: 1 });
        const other = await enqueue({ number: 2 });
        const a = await mustClaim();
        expect(a.run.id).toBe(first.id);
        expect((await mustClaim()).run.id).toBe(other.id);
        expect(await claim()).toBeUndefined();

        await store.update(a.lease, { state: 'awaiting_approval' });
        expect(await claim()).toBeUndefined();

        await store.finish(a.lease, { state: 'succeeded', conclusion: 'success' });
        expect((await mustClaim()).run.id).toBe(second.id);
      });

      it('keeps a run of a conversation queued while a run of the same conversation is in flight on its issue or pull request', async () => {
        // #1 is the issue, #2 the pull request agent-mux opened for it (conversation octo/demo#1), #3 another issue.
        const onIssue = await enqueue({ number: 1 });
        const onPull = await enqueue({ number: 2, conversationKey: 'octo/demo#1' });
        const other = await enqueue({ number: 3 });
        const a = await mustClaim();
        expect(a.run.id).toBe(onIssue.id);
        expect((await mustClaim()).run.id).toBe(other.id);
        expect(await backend.open().claim('w2', 60_000, NO_LIMITS)).toBeUndefined();
        await store.finish(a.lease, { state: 'succeeded', conclusion: 'success' });
        const b = await mustClaim();
        expect(b.run.id).toBe(onPull.id);
        // And the other way round: the issue's next run waits for the pull request's.
        const issueAgain = await enqueue({ number: 1 });
        expect(await claim()).toBeUndefined();
        await store.finish(b.lease, { state: 'succeeded', conclusion: 'success' });
        expect((await mustClaim()).run.id).toBe(issueAgain.id);
      });

      it("with 'cancel', flags the older queued and running runs of the issue", async () => {
        const running = await enqueue({ number: 1 });
        const { lease } = await mustClaim();
        const queued = await enqueue({ number: 1 });
        const otherIssue = await enqueue({ number: 2 });
        const { run: newest, cancelled } = await store.enqueue({
          job: makeJob({ number: 1 }),
          installationId: 42,
          adapter: 'demo',
          perIssue: 'cancel',
        });
        expect(cancelled).toEqual([running.id, queued.id]);
        expect((await store.get(running.id))?.cancelRequested).toBe(true);
        expect((await store.get(queued.id))?.cancelRequested).toBe(true);
        expect(newest.cancelRequested).toBe(false);
        expect((await store.get(otherIssue.id))?.cancelRequested).toBe(false);

        // The cancelled run still holds the issue until its worker finishes it.
        expect((await mustClaim()).run.id).toBe(otherIssue.id);
        expect(await claim()).toBeUndefined();
        await store.finish(lease, { state: 'cancelled', conclusion: 'cancelled' });

        // The flagged queued run is never started: the claim concludes it and starts the newest.
        expect((await mustClaim()).run.id).toBe(newest.id);
        expect(await store.get(queued.id)).toMatchObject({ state: 'cancelled', conclusion: 'cancelled' });
      });

      it("with 'queue', cancels nothing", async () => {
        await enqueue({ number: 1 });
        const { cancelled } = await store.enqueue({
          job: makeJob({ number: 1 }),
          installationId: 42,
          adapter: 'demo',
          perIssue: 'queue',
        });
        expect(cancelled).toEqual([]);
        expect((await store.list({ issueKey: 'octo/demo#1' })).map((r) => r.cancelRequested)).toEqual([false, false]);
      });
    });

    describe('limits', () => {
      it('holds the per-repository limit', async () => {
        const x1 = await enqueue({ repo: 'octo/x', number: 1 });
        const x2 = await enqueue({ repo: 'octo/x', number: 2 });
        const x3 = await enqueue({ repo: 'octo/x', number: 3 });
        const y1 = await enqueue({ repo: 'octo/y', number: 1 });
        const limits = { ...NO_LIMITS, perRepo: 2 };
        const a = await mustClaim(limits);
        expect([a.run.id, (await mustClaim(limits)).run.id, (await mustClaim(limits)).run.id]).toEqual([
          x1.id,
          x2.id,
          y1.id,
        ]);
        expect(await claim(limits)).toBeUndefined();
        await store.finish(a.lease, { state: 'succeeded', conclusion: 'success' });
        expect((await mustClaim(limits)).run.id).toBe(x3.id);
      });

      it('holds per-adapter limits, with the default for adapters not listed', async () => {
        const limits: ConcurrencyLimits = { perRepo: 1000, perAdapter: { claude: 1 }, defaultPerAdapter: 2 };
        const c1 = await enqueue({ number: 1, adapter: 'claude' });
        const c2 = await enqueue({ number: 2, adapter: 'claude' });
        const d1 = await enqueue({ number: 3, adapter: 'codex' });
        const d2 = await enqueue({ number: 4, adapter: 'codex' });
        await enqueue({ number: 5, adapter: 'codex' });
        const first = await mustClaim(limits);
        const ids = [first.run.id, (await mustClaim(limits)).run.id, (await mustClaim(limits)).run.id];
        expect(ids).toEqual([c1.id, d1.id, d2.id]);
        expect(await claim(limits)).toBeUndefined();
        await store.finish(first.lease, { state: 'succeeded', conclusion: 'success' });
        expect((await mustClaim(limits)).run.id).toBe(c2.id);
      });

      it("goes round the installations: one installation's 60 queued runs do not start before another's one", async () => {
        const flood: string[] = [];
        for (let n = 1; n <= 60; n++)
          flood.push((await enqueue({ repo: `big/r${n}`, number: n, installationId: 1 })).id);
        const lone = await enqueue({ repo: 'small/r', number: 1, installationId: 2 });
        const third = await enqueue({ repo: 'third/r', number: 1, installationId: 3 });
        const order = [];
        for (let i = 0; i < 4; i++) order.push((await mustClaim(NO_LIMITS)).run.id);
        // Each installation's oldest first, the one never served before the one served.
        expect(order).toEqual([flood[0], lone.id, third.id, flood[1]]);
      });

      it('round robin holds when the runs finish between claims', async () => {
        const a1 = await enqueue({ number: 1, installationId: 1 });
        const a2 = await enqueue({ number: 2, installationId: 1 });
        const b1 = await enqueue({ number: 3, installationId: 2 });
        const first = await mustClaim(NO_LIMITS);
        expect(first.run.id).toBe(a1.id);
        await store.finish(first.lease, { state: 'succeeded', conclusion: 'success' });
        // Installation 1 was served last: 2's run goes next although 1's is older.
        expect((await mustClaim(NO_LIMITS)).run.id).toBe(b1.id);
        expect((await mustClaim(NO_LIMITS)).run.id).toBe(a2.id);
      });

      it('holds the per-installation cap', async () => {
        const limits: ConcurrencyLimits = { ...NO_LIMITS, perInstallation: 2 };
        for (let n = 1; n <= 5; n++) await enqueue({ repo: `big/r${n}`, number: n, installationId: 1 });
        const claimed = [await mustClaim(limits), await mustClaim(limits)];
        expect(claimed.map((c) => c.run.installationId)).toEqual([1, 1]);
        expect(await claim(limits)).toBeUndefined();
        const other = await enqueue({ repo: 'small/r', number: 1, installationId: 2 });
        expect((await mustClaim(limits)).run.id).toBe(other.id);
        await store.finish(claimed[0]!.lease, { state: 'succeeded', conclusion: 'success' });
        expect((await mustClaim(limits)).run.installationId).toBe(1);
      });

      it('starts nothing of an adapter whose limit is 0', async () => {
        const limits: ConcurrencyLimits = { perRepo: 1000, perAdapter: { codex: 0 }, defaultPerAdapter: 0 };
        await enqueue({ number: 1, adapter: 'codex' });
        await enqueue({ number: 2, adapter: 'claude' });
        expect(await claim(limits)).toBeUndefined();
        const claude = await mustClaim({ ...limits, perAdapter: { codex: 0, claude: 1 } });
        expect(claude.run.adapter).toBe('claude');
      });
    });

    describe('leases, expiry and recovery', () => {
      it('lists runs in flight whose lease expired', async () => {
        const a = await enqueue({ number: 1 });
        const b = await enqueue({ number: 2 });
        await enqueue({ number: 3 });
        const c = await enqueue({ number: 4 });
        const ca = await store.claim('w1', 1_000, NO_LIMITS);
        const cb = await store.claim('w1', 1_000, NO_LIMITS);
        const cc = await store.claim('w1', 1_000, NO_LIMITS);
        if (!ca || !cb || !cc) throw new Error('claims failed');
        await store.update(cb.lease, { state: 'awaiting_approval' });
        await store.finish(cc.lease, { state: 'succeeded', conclusion: 'success' });
        expect(await store.expiredRuns(ca.lease.expiresAt - 1)).toEqual([]);
        const later = Math.max(ca.lease.expiresAt, cb.lease.expiresAt) + 1;
        expect((await store.expiredRuns(later)).map((r) => [r.id, r.state])).toEqual([
          [a.id, 'running'],
          [b.id, 'awaiting_approval'],
        ]);
        expect(c.state).toBe('queued');
      });

      it('fences off the old worker after a takeover and gives the next claim a higher token', async () => {
        const run = await enqueue({ number: 1 });
        const old = await store.claim('w1', 1_000, NO_LIMITS);
        if (!old) throw new Error('claim failed');
        const [expired] = await store.expiredRuns(old.lease.expiresAt + 1);
        expect(expired?.id).toBe(run.id);
        const recovered = await store.recover(run.id, old.lease.leaseEpoch, 'retry', 'lease expired');
        expect(recovered).toMatchObject({
          id: run.id,
          state: 'queued',
          attempts: 1,
          leaseOwner: undefined,
          leaseToken: undefined,
          leaseExpiresAt: undefined,
        });
        expect(recovered?.leaseEpoch).toBeGreaterThan(old.lease.leaseEpoch);

        const stale: Lease = old.lease;
        await expect(store.update(stale, { commentId: 1 })).rejects.toSatisfy(StaleLeaseError.isInstance);
        await expect(store.renew(stale, 60_000)).rejects.toSatisfy(StaleLeaseError.isInstance);
        await expect(store.finish(stale, { state: 'succeeded', conclusion: 'success' })).rejects.toSatisfy(
          StaleLeaseError.isInstance,
        );

        const next = await store.claim('w2', 60_000, NO_LIMITS);
        expect(next?.run.id).toBe(run.id);
        expect(next?.run.attempts).toBe(1);
        expect(next?.lease.leaseEpoch).toBeGreaterThan(recovered?.leaseEpoch ?? Number.POSITIVE_INFINITY);
        await expect(store.update(stale, { commentId: 1 })).rejects.toThrow(StaleLeaseError);
        if (next) await store.update(next.lease, { commentId: 2 });
        expect((await store.get(run.id))?.commentId).toBe(2);
      });

      it('returns undefined when the lease epoch is stale or the run is not in flight', async () => {
        const run = await enqueue({ number: 1 });
        expect(await store.recover(run.id, run.leaseEpoch, 'retry', 'not in flight')).toBeUndefined();
        const { lease } = await mustClaim();
        expect(await store.recover(run.id, lease.leaseEpoch - 1, 'retry', 'stale')).toBeUndefined();
        expect(await store.recover(run.id, lease.leaseEpoch, 'retry', 'expired')).toBeDefined();
        expect(await store.recover(run.id, lease.leaseEpoch, 'retry', 'again')).toBeUndefined();
        expect(await store.recover('no-such-run', 1, 'fail', 'missing')).toBeUndefined();
        expect((await store.get(run.id))?.attempts).toBe(1);
      });

      it("concludes a run 'failed' with the reason on recover(fail)", async () => {
        const run = await enqueue({ number: 1 });
        const { lease } = await mustClaim();
        const failed = await store.recover(run.id, lease.leaseEpoch, 'fail', 'worker lost after 3 attempts');
        expect(failed).toMatchObject({
          state: 'failed',
          conclusion: 'failure',
          reason: 'worker lost after 3 attempts',
          attempts: 0,
          leaseToken: undefined,
        });
        expect(failed?.leaseEpoch).toBeGreaterThan(lease.leaseEpoch);
        await expect(store.finish(lease, { state: 'succeeded', conclusion: 'success' })).rejects.toSatisfy(
          StaleLeaseError.isInstance,
        );
        expect(await store.expiredRuns(Number.MAX_SAFE_INTEGER)).toEqual([]);
        expect(await claim()).toBeUndefined();
      });

      it('concludes a run as its worker reported it on recover(reported), keeping its check run and comment', async () => {
        const run = await enqueue({ number: 1 });
        const { lease } = await mustClaim();
        await store.update(lease, { checkRunId: 41, commentId: 42 });
        const outcome = { state: 'succeeded' as const, conclusion: 'success' };
        const reported = await store.recover(run.id, lease.leaseEpoch, 'reported', 'concluded, then lost', outcome);
        expect(reported).toMatchObject({
          state: 'succeeded',
          conclusion: 'success',
          reason: 'concluded, then lost',
          attempts: 0,
          checkRunId: 41,
          commentId: 42,
          leaseOwner: undefined,
          leaseToken: undefined,
        });
        expect(reported?.leaseEpoch).toBeGreaterThan(lease.leaseEpoch);
        await expect(store.finish(lease, { state: 'failed', conclusion: 'failure' })).rejects.toSatisfy(
          StaleLeaseError.isInstance,
        );
        expect(await store.recover(run.id, lease.leaseEpoch, 'reported', 'again', outcome)).toBeUndefined();
        expect(await store.expiredRuns(Number.MAX_SAFE_INTEGER)).toEqual([]);
        expect(await claim()).toBeUndefined();
      });

      it('forgets the check run of a run queued again on recover(retry) (its next attempt makes its own), keeping its comment', async () => {
        const run = await enqueue({ number: 1 });
        const { lease } = await mustClaim();
        await store.update(lease, { checkRunId: 41, commentId: 42 });
        const requeued = await store.recover(run.id, lease.leaseEpoch, 'retry', 'lease expired');
        expect(requeued).toMatchObject({ state: 'queued', checkRunId: undefined, commentId: 42 });
        expect(await store.get(run.id)).toMatchObject({ checkRunId: undefined, commentId: 42 });
      });
    });

    describe('requestCancel', () => {
      it('flags the queued and in-flight runs of an issue and returns their ids', async () => {
        const done = await enqueue({ number: 1 });
        const first = await mustClaim();
        await store.finish(first.lease, { state: 'succeeded', conclusion: 'success' });
        const running = await enqueue({ number: 1 });
        await mustClaim();
        const queued = await enqueue({ number: 1 });
        const other = await enqueue({ number: 2 });

        expect(await store.requestCancel('octo/demo#1')).toEqual([running.id, queued.id]);
        expect((await store.get(done.id))?.cancelRequested).toBe(false);
        expect((await store.get(running.id))?.cancelRequested).toBe(true);
        expect((await store.get(other.id))?.cancelRequested).toBe(false);
        expect(await store.requestCancel('octo/nothing#9')).toEqual([]);
      });

      it('never starts a queued run whose cancellation was requested', async () => {
        const queued = await enqueue({ number: 1 });
        await store.requestCancel('octo/demo#1');
        expect(await claim()).toBeUndefined();
        expect(await store.get(queued.id)).toMatchObject({
          state: 'cancelled',
          conclusion: 'cancelled',
          leaseToken: undefined,
        });
      });
    });

    describe('pending approvals', () => {
      const approval = (approvalId: string, toolName = 'Bash'): PendingApproval => ({
        approvalId,
        toolName,
        commitSha: 'abc123',
        commentId: 500,
        askedAt: '2026-01-01T00:00:00.000Z',
      });

      it('saves, lists by run or issue, replaces and removes', async () => {
        await store.savePendingApproval('run-a', 'octo/demo#1', approval('ap-1'));
        await store.savePendingApproval('run-a', 'octo/demo#1', approval('ap-2'));
        await store.savePendingApproval('run-b', 'octo/demo#2', approval('ap-3'));
        const ids = async (filter: { runId?: string; issueKey?: string }) =>
          (await store.pendingApprovals(filter)).map((a) => a.approvalId);

        expect(await store.pendingApprovals({ runId: 'run-a' })).toEqual([
          { ...approval('ap-1'), runId: 'run-a', issueKey: 'octo/demo#1' },
          { ...approval('ap-2'), runId: 'run-a', issueKey: 'octo/demo#1' },
        ]);
        expect(await ids({ issueKey: 'octo/demo#2' })).toEqual(['ap-3']);
        expect(await ids({ runId: 'run-a', issueKey: 'octo/demo#2' })).toEqual([]);
        expect(await ids({})).toEqual(['ap-1', 'ap-2', 'ap-3']);

        await store.savePendingApproval('run-a', 'octo/demo#1', approval('ap-1', 'Write'));
        expect((await store.pendingApprovals({ runId: 'run-a' }))[0]?.toolName).toBe('Write');

        await store.removePendingApproval('ap-1');
        await store.removePendingApproval('ap-unknown');
        expect(await ids({ runId: 'run-a' })).toEqual(['ap-2']);
        expect(await backend.open().pendingApprovals({ issueKey: 'octo/demo#1' })).toHaveLength(1);
      });

      it("supersedes a run's pending approvals: moved with the reason, listed by run or issue", async () => {
        await store.savePendingApproval('run-a', 'octo/demo#1', approval('ap-1'));
        await store.savePendingApproval('run-a', 'octo/demo#1', approval('ap-2'));
        await store.savePendingApproval('run-b', 'octo/demo#2', approval('ap-3'));

        const moved = await store.supersedeApprovals('run-a', 'the worker stopped');
        expect(moved.map((a) => a.approvalId).sort()).toEqual(['ap-1', 'ap-2']);
        expect(moved[0]).toMatchObject({ runId: 'run-a', issueKey: 'octo/demo#1', reason: 'the worker stopped' });
        expect((await store.pendingApprovals({})).map((a) => a.approvalId)).toEqual(['ap-3']);
        expect(await store.supersedeApprovals('run-none', 'nothing')).toEqual([]);

        const other = backend.open();
        expect(await other.supersededApprovals({ issueKey: 'octo/demo#1' })).toEqual([
          { ...approval('ap-1'), runId: 'run-a', issueKey: 'octo/demo#1', reason: 'the worker stopped' },
          { ...approval('ap-2'), runId: 'run-a', issueKey: 'octo/demo#1', reason: 'the worker stopped' },
        ]);
        expect(await other.supersededApprovals({ runId: 'run-b' })).toEqual([]);
        expect(await other.supersededApprovals({ runId: 'run-a', issueKey: 'octo/demo#2' })).toEqual([]);
      });
    });

    describe('answers', () => {
      it('takes the answers of an issue once, in the order recorded', async () => {
        const answer = { decision: 'approve' as const, actor: { login: 'bob', type: 'User' }, via: 'comment' as const };
        await store.addAnswer({ kind: 'answer', issueKey: 'octo/demo#1', answer: { ...answer, approvalId: 'ap-1' } });
        await store.addAnswer({ kind: 'void', issueKey: 'octo/demo#1', reason: 'new push' });
        await store.addAnswer({ kind: 'answer', issueKey: 'octo/demo#2', answer });

        const taken = await backend.open().takeAnswers('octo/demo#1');
        expect(taken).toMatchObject([
          { kind: 'answer', issueKey: 'octo/demo#1', answer: { ...answer, approvalId: 'ap-1' } },
          { kind: 'void', issueKey: 'octo/demo#1', reason: 'new push' },
        ]);
        expect(taken[0]?.id).toBeLessThan(taken[1]?.id ?? 0);
        expect(typeof taken[0]?.receivedAt).toBe('number');
        expect(await store.takeAnswers('octo/demo#1')).toEqual([]);
        expect(await store.takeAnswers('octo/demo#2')).toHaveLength(1);
      });
    });

    describeStoredConversations(() => ({ store, backend }));

    describe('concurrency', () => {
      it('hands each of 200 runs to exactly one of 4 claimers on separate handles', async () => {
        for (let i = 0; i < 200; i++) await enqueue({ repo: `octo/r${i % 7}`, number: i });
        const claimers = [store, backend.open(), backend.open(), backend.open()];
        const claimed = await Promise.all(claimers.map((handle, i) => claimAll(handle, `w${i}`)));
        const all = claimed.flat();
        expect(all).toHaveLength(200);
        expect(new Set(all).size).toBe(200);
        expect(await store.list({ states: ['queued'] })).toEqual([]);
      });

      it('never runs two runs of one issue or more than the repository limit at once', async () => {
        for (let i = 0; i < 30; i++) await enqueue({ repo: `octo/r${i % 3}`, number: i % 5 });
        const limits = { ...NO_LIMITS, perRepo: 2 };
        const claimed = (
          await Promise.all([store, backend.open(), backend.open()].map((h, i) => claimAll(h, `w${i}`, limits)))
        ).flat();
        const running = await store.list({ states: ['running'] });
        expect(running.map((r) => r.id).sort()).toEqual([...claimed].sort());
        const perRepo = new Map<string, number>();
        for (const r of running) perRepo.set(r.repoKey, (perRepo.get(r.repoKey) ?? 0) + 1);
        expect(Math.max(...perRepo.values())).toBe(2);
        expect(new Set(running.map((r) => r.issueKey)).size).toBe(running.length);
      });
    });
  });
}
