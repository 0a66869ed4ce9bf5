import { describe, expect, it } from 'vitest';
import { createFakeClock, systemClock } from '../../../src/github/pacing/clock.ts';

describe('createFakeClock', () => {
  it('runs due timers in due order, then creation order, and timers set while advancing', () => {
    const clock = createFakeClock(1000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`c@${clock.now()}`), 20);
    clock.setTimeout(() => {
      seen.push(`d@${clock.now()}`);
      clock.setTimeout(() => seen.push(`e@${clock.now()}`), 5);
    }, 25);
    clock.advance(29);
    expect(seen).toEqual(['a@1010', 'b@1020', 'c@1020', 'd@1025']);
    expect(clock.now()).toBe(1029);
    clock.advance(1);
    expect(seen.at(-1)).toBe('e@1030');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('clears timers', () => {
    const clock = createFakeClock();
    let fired = false;
    const handle = clock.setTimeout(() => {
      fired = true;
    }, 5);
    clock.clearTimeout(handle);
    clock.advance(10);
    expect(fired).toBe(false);
  });

  it('the system clock reads Date.now()', () => {
    const before = Date.now();
    expect(systemClock.now()).toBeGreaterThanOrEqual(before);
    systemClock.clearTimeout(systemClock.setTimeout(() => undefined, 1000));
  });
});
