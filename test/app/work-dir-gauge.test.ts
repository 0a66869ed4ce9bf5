import { describe, expect, it } from 'vitest';
import { createWorkDirGauge } from '../../src/app/work-dir-gauge.ts';

describe('createWorkDirGauge', () => {
  it('walks once for the callers that ask while it walks, and reuses the size for ttlMs', async () => {
    let time = 0;
    let walks = 0;
    let size = 100;
    const gauge = createWorkDirGauge('/work', {
      ttlMs: 5000,
      now: () => time,
      measure: async (dir) => {
        expect(dir).toBe('/work');
        walks++;
        await new Promise((resolve) => setImmediate(resolve));
        return size;
      },
    });
    expect(await Promise.all(Array.from({ length: 100 }, () => gauge()))).toEqual(Array(100).fill(100));
    expect(walks).toBe(1);
    size = 200;
    time = 4999;
    expect(await gauge()).toBe(100);
    expect(walks).toBe(1);
    time = 5000;
    expect(await gauge()).toBe(200);
    expect(walks).toBe(2);
  });

  it('keeps no failed walk: the next call walks again', async () => {
    let walks = 0;
    const gauge = createWorkDirGauge('/work', {
      measure: async () => {
        walks++;
        if (walks === 1) throw new Error('EACCES');
        return 7;
      },
    });
    await expect(gauge()).rejects.toThrow('EACCES');
    expect(await gauge()).toBe(7);
    expect(walks).toBe(2);
  });
});
