import { describe, expect, it } from 'vitest';
import { RecentIds } from '../../../src/adapters/shared/recent-ids.ts';

describe('RecentIds', () => {
  it('recognises an id added lately, across one change of generation', () => {
    const ids = new RecentIds(3);
    for (const id of ['a', 'b', 'c', 'd']) ids.add(id);
    // `d` started a new generation: `a`–`c` are the older one, still held.
    expect(['a', 'b', 'c', 'd'].map((id) => ids.has(id))).toEqual([true, true, true, true]);
    expect(ids.has('e')).toBe(false);
  });

  it('holds at most two generations, however many ids a long run adds', () => {
    const ids = new RecentIds(4);
    for (let i = 0; i < 10_000; i++) ids.add(`item_${i}`);
    expect(ids.size).toBeLessThanOrEqual(8);
    expect(ids.has('item_9999')).toBe(true);
    expect(ids.has('item_9992')).toBe(true);
    // Older than two generations: forgotten.
    expect(ids.has('item_0')).toBe(false);
    expect(ids.has('item_9990')).toBe(false);
  });

  it('refuses a generation that is not a positive integer', () => {
    expect(() => new RecentIds(0)).toThrow(RangeError);
    expect(() => new RecentIds(1.5)).toThrow(RangeError);
  });
});
