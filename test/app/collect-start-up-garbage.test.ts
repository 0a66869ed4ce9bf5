import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectStartUpGarbage } from '../../src/app/collect-start-up-garbage.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('collectStartUpGarbage', () => {
  it('collects what nothing references any more, old generation included, and says how long it took', async () => {
    // Big enough to be allocated in the old generation's large-object space, not the young one.
    let kept: number[] | undefined = Array.from({ length: 300_000 }, (_, i) => i);
    const young = new WeakRef({ label: 'short-lived' });
    const old = new WeakRef(kept);
    kept = undefined;
    // A WeakRef's target lives at least until the job that made it ends.
    await nextTurn();
    const ms = collectStartUpGarbage();
    expect(young.deref()).toBeUndefined();
    expect(old.deref()).toBeUndefined();
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(Number.isFinite(ms)).toBe(true);
  });

  it('leaves gc() exposed to no context made afterwards', () => {
    collectStartUpGarbage();
    expect(runInNewContext('typeof gc')).toBe(typeof (globalThis as { gc?: unknown }).gc);
  });
});
