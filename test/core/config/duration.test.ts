import { describe, expect, it } from 'vitest';
import { durationSchema, parseDuration } from '../../../src/core/config/duration.ts';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(durationSchema.safeParse(text).success).toBe(true);
  });

  it.each(['', '5', '5 m', 'm', '5d', '-1s'])('rejects %j', (text) => {
    expect(() => parseDuration(text)).toThrow(RangeError);
    expect(durationSchema.safeParse(text).success).toBe(false);
  });
});
