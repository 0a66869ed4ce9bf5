import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../src/github/pacing/clock.ts';
import { WriteBudget } from '../../../src/github/pacing/write-budget.ts';

/** Lets promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A write held open until `open()`; `started` tells whether it began. */
function heldWrite(log: string[], name: string) {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const state = { started: false };
  return {
    state,
    open: () => open(),
    write: async () => {
      state.started = true;
      log.push(`start ${name}`);
      await gate;
      log.push(`end ${name}`);
    },
  };
}

describe('WriteBudget', () => {
  it('starts live updates one at a time, spaced, in the order asked', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 1000 });
    const starts: { name: string; at: number }[] = [];
    const write = (name: string) => async () => {
      starts.push({ name, at: clock.now() });
    };
    const done = [budget.live(write('a')), budget.live(write('b')), budget.live(write('c'))];
    await settle();
    expect(starts).toEqual([{ name: 'a', at: 0 }]);
    clock.advance(999);
    await settle();
    expect(starts).toHaveLength(1);
    clock.advance(1);
    await settle();
    clock.advance(1000);
    await settle();
    await Promise.all(done);
    expect(starts).toEqual([
      { name: 'a', at: 0 },
      { name: 'b', at: 1000 },
      { name: 'c', at: 2000 },
    ]);
  });

  it('never has two live updates in flight, however long one takes', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 10 });
    const log: string[] = [];
    const first = heldWrite(log, 'a');
    const second = heldWrite(log, 'b');
    const a = budget.live(first.write);
    const b = budget.live(second.write);
    await settle();
    clock.advance(5_000);
    await settle();
    expect(second.state.started).toBe(false);
    first.open();
    await a;
    await settle();
    expect(second.state.started).toBe(true);
    second.open();
    await b;
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('holds live updates while an urgent write is pending, and starts them when it ends', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 0 });
    const log: string[] = [];
    const reaction = heldWrite(log, 'urgent');
    const urgent = budget.urgent(reaction.write);
    expect(budget.urgentPending).toBe(1);
    const live = budget.live(async () => {
      log.push('live');
    });
    await settle();
    clock.advance(10_000);
    await settle();
    expect(log).toEqual(['start urgent']);
    reaction.open();
    await urgent;
    await live;
    expect(budget.urgentPending).toBe(0);
    expect(log).toEqual(['start urgent', 'end urgent', 'live']);
  });

  it('lets a live update that waited maxLiveWaitMs go even while urgent writes keep coming', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 0, maxLiveWaitMs: 20_000 });
    const log: string[] = [];
    const stuck = heldWrite(log, 'urgent');
    void budget.urgent(stuck.write);
    let ran = false;
    const live = budget.live(async () => {
      ran = true;
    });
    clock.advance(19_999);
    await settle();
    expect(ran).toBe(false);
    clock.advance(1);
    await live;
    expect(ran).toBe(true);
    stuck.open();
  });

  it('counts no urgent write for the calls a live update makes itself', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 0 });
    const seen: number[] = [];
    const after = budget.live(async () => {
      await budget.urgent(async () => {
        seen.push(budget.urgentPending);
      });
    });
    await after;
    expect(seen).toEqual([0]);
    // Outside a live update the same call counts.
    await budget.urgent(async () => {
      seen.push(budget.urgentPending);
    });
    expect(seen).toEqual([0, 1]);
  });

  it('drops a live update whose signal aborted before it started, and resolves it', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 1000 });
    const ran: string[] = [];
    await budget.live(async () => {
      ran.push('a');
    });
    const abort = new AbortController();
    const dropped = budget.live(async () => {
      ran.push('b');
    }, abort.signal);
    abort.abort();
    await dropped;
    clock.advance(5_000);
    await settle();
    expect(ran).toEqual(['a']);
    const already = new AbortController();
    already.abort();
    await budget.live(async () => {
      ran.push('c');
    }, already.signal);
    expect(ran).toEqual(['a']);
  });

  it('passes a failing live update on to its caller and goes on with the next', async () => {
    const clock = createFakeClock(0);
    const budget = new WriteBudget({ clock, liveSpacingMs: 0 });
    await expect(budget.live(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      budget.live(() => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    let ran = false;
    await budget.live(async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it('stretches the live interval with the runs in flight', () => {
    const budget = new WriteBudget({ liveSpacingMs: 1500 });
    expect(budget.liveIntervalMs(3000)).toBe(3000);
    const releases = Array.from({ length: 5 }, () => budget.run());
    expect(budget.runs).toBe(5);
    // 5 runs × 2 live writers × 1.5 s × 1.5 headroom
    expect(budget.liveIntervalMs(3000)).toBe(22_500);
    expect(budget.liveIntervalMs(5000)).toBe(22_500);
    releases[0]!();
    releases[0]!();
    expect(budget.runs).toBe(4);
    for (const release of releases) release();
    expect(budget.runs).toBe(0);
    expect(budget.liveIntervalMs(5000)).toBe(5000);
  });
});
