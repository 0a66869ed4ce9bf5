import { describe, expect, it } from 'vitest';
import { createSessionPool } from '../../../../src/adapters/protocols/http/session-pool.ts';

describe('createSessionPool', () => {
  it('grants slots in order of arrival and frees each once', async () => {
    const pool = createSessionPool(1);
    const first = await pool.acquire();
    const granted: string[] = [];
    const second = pool.acquire().then((release) => {
      granted.push('second');
      return release;
    });
    const third = pool.acquire().then((release) => {
      granted.push('third');
      return release;
    });
    expect(pool.waiting).toBe(2);
    first();
    first(); // a second call frees nothing more
    (await second)();
    (await third)();
    expect(granted).toEqual(['second', 'third']);
    expect(pool.active).toBe(0);
    expect(pool.waiting).toBe(0);
  });

  it('lets a waiting caller abort without taking or losing a slot', async () => {
    const pool = createSessionPool(1);
    const release = await pool.acquire();
    const abort = new AbortController();
    const waiting = pool.acquire(abort.signal);
    const next = pool.acquire();
    abort.abort();
    await expect(waiting).rejects.toThrow('aborted while waiting');
    expect(pool.waiting).toBe(1);
    release();
    (await next)();
    expect(pool.active).toBe(0);
    await expect(pool.acquire(abort.signal)).rejects.toThrow();
  });

  it('rejects a size that is not a positive integer', () => {
    expect(() => createSessionPool(0)).toThrow(RangeError);
  });
});
