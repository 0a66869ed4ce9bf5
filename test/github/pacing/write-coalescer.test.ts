import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../src/github/pacing/clock.ts';
import { type CoalescerOptions, createCoalescer } from '../../../src/github/pacing/write-coalescer.ts';

/** Lets promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A writer that records values and can be held open or made to fail. */
function recorder(clock: { now(): number }) {
  const writes: { value: number; at: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let failNext = 0;
  let gate: Promise<void> | undefined;
  let openGate: (() => void) | undefined;
  return {
    writes,
    get maxInFlight() {
      return maxInFlight;
    },
    failTimes(n: number) {
      failNext = n;
    },
    hold() {
      gate = new Promise((resolve) => {
        openGate = resolve;
      });
    },
    release() {
      const open = openGate;
      gate = undefined;
      openGate = undefined;
      open?.();
    },
    write: async (value: number) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (gate) await gate;
        if (failNext > 0) {
          failNext--;
          throw new Error(`write ${value} failed`);
        }
        writes.push({ value, at: clock.now() });
      } finally {
        inFlight--;
      }
    },
  };
}

/** A coalescer over a numbered state: `push(n)` changes the state to `n`; the write reads the state when it starts. */
function coalescerOf(options: Omit<CoalescerOptions, 'write'> & { write: (value: number) => Promise<void> }) {
  let value = 0;
  const coalescer = createCoalescer({ ...options, write: () => options.write(value) });
  return {
    push(next: number) {
      value = next;
      coalescer.push();
    },
    flush: () => coalescer.flush(),
    close: () => coalescer.close(),
  };
}

describe('createCoalescer', () => {
  it('1000 pushes within one interval: the first writes at once, the newest once the interval passed', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const coalescer = coalescerOf({ intervalMs: 3000, clock, write: rec.write });
    for (let i = 0; i < 1000; i++) {
      coalescer.push(i);
      clock.advance(1);
      await settle();
    }
    expect(rec.writes).toEqual([{ value: 0, at: 0 }]);
    clock.advance(2000);
    await settle();
    expect(rec.writes).toEqual([
      { value: 0, at: 0 },
      { value: 999, at: 3000 },
    ]);
    clock.advance(60_000);
    await settle();
    expect(rec.writes).toHaveLength(2);
  });

  it('writes at most once per interval whatever the push rate', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const coalescer = coalescerOf({ intervalMs: 500, clock, write: rec.write });
    for (let t = 0; t < 10_000; t += 7) {
      coalescer.push(t);
      clock.advance(7);
      await settle();
    }
    await coalescer.flush();
    const gaps = rec.writes.slice(1).map((w, i) => w.at - rec.writes[i]!.at);
    expect(gaps.slice(0, -1).every((gap) => gap >= 500)).toBe(true);
    expect(rec.writes.length).toBeLessThanOrEqual(10_000 / 500 + 2);
    expect(rec.writes.at(-1)?.value).toBe(9996);
  });

  it('flush writes the final value at once and resolves when it is written', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const coalescer = coalescerOf({ intervalMs: 5000, clock, write: rec.write });
    coalescer.push(1);
    coalescer.push(2);
    coalescer.push(3);
    await coalescer.flush();
    expect(rec.writes.map((w) => w.value)).toEqual([1, 3]);
    expect(clock.pendingTimers()).toBe(0);
    await coalescer.flush();
    expect(rec.writes).toHaveLength(2);
  });

  it('never has two writes in flight: flush waits for the one in flight', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const coalescer = coalescerOf({ intervalMs: 100, clock, write: rec.write });
    rec.hold();
    coalescer.push(1);
    for (let i = 2; i <= 50; i++) {
      coalescer.push(i);
      clock.advance(100);
      await settle();
    }
    let flushed = false;
    const flushing = coalescer.flush().then(() => {
      flushed = true;
    });
    await settle();
    expect(flushed).toBe(false);
    expect(rec.writes).toEqual([]);
    rec.release();
    await flushing;
    expect(rec.writes.map((w) => w.value)).toEqual([1, 50]);
    expect(rec.maxInFlight).toBe(1);
  });

  it('reports a failed write and retries the value on the next tick', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const errors: unknown[] = [];
    const coalescer = coalescerOf({ intervalMs: 1000, clock, write: rec.write, onError: (e) => errors.push(e) });
    rec.failTimes(2);
    coalescer.push(7);
    await settle();
    expect(errors.map(String)).toEqual(['Error: write 7 failed']);
    clock.advance(999);
    await settle();
    expect(rec.writes).toEqual([]);
    clock.advance(1);
    await settle();
    expect(errors).toHaveLength(2);
    clock.advance(1000);
    await settle();
    expect(rec.writes).toEqual([{ value: 7, at: 2000 }]);
  });

  it('a newer value replaces one whose write failed', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const coalescer = coalescerOf({ intervalMs: 1000, clock, write: rec.write, onError: () => undefined });
    rec.hold();
    rec.failTimes(1);
    coalescer.push(1);
    coalescer.push(2);
    rec.release();
    await settle();
    clock.advance(1000);
    await settle();
    expect(rec.writes.map((w) => w.value)).toEqual([2]);
  });

  it('a write that throws synchronously is reported like a rejection', async () => {
    const clock = createFakeClock();
    const errors: unknown[] = [];
    const coalescer = createCoalescer({
      intervalMs: 10,
      clock,
      write: () => {
        throw new Error('sync');
      },
      onError: (e) => errors.push(e),
    });
    coalescer.push();
    await settle();
    expect(errors).toHaveLength(1);
    await coalescer.close();
  });

  it('writes nothing after close, and close waits for the write in flight', async () => {
    const clock = createFakeClock();
    const rec = recorder(clock);
    const coalescer = coalescerOf({ intervalMs: 1000, clock, write: rec.write });
    rec.hold();
    coalescer.push(1);
    coalescer.push(2);
    let closed = false;
    const closing = coalescer.close().then(() => {
      closed = true;
    });
    await settle();
    expect(closed).toBe(false);
    rec.release();
    await closing;
    coalescer.push(3);
    await coalescer.flush();
    clock.advance(10_000);
    await settle();
    expect(rec.writes.map((w) => w.value)).toEqual([1]);
    expect(clock.pendingTimers()).toBe(0);
  });
});
