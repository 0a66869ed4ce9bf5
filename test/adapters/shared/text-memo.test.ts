import { describe, expect, it } from 'vitest';
import { TextMemo } from '../../../src/adapters/shared/text-memo.ts';

/** The same text as a new string object, as `JSON.parse` gives each record's text. */
const fresh = (text: string): string => (JSON.parse(JSON.stringify({ text })) as { text: string }).text;

describe('TextMemo', () => {
  it('finds a value by a text equal to the one remembered, not by the same string object', () => {
    const memo = new TextMemo<number>();
    memo.set('rate limited (429)', 1);
    memo.set('unauthorized (401)', 2); // same length, other text
    expect(memo.get(fresh('rate limited (429)'))).toBe(1);
    expect(memo.get(fresh('unauthorized (401)'))).toBe(2);
    expect(memo.get('rate limited (430)')).toBeUndefined();
    expect(memo.get('')).toBeUndefined();
  });

  it('keeps at most perLength texts of one length and forgets all past `lengths` lengths', () => {
    const memo = new TextMemo<string>(3, 2);
    for (const text of ['aa', 'bb', 'cc']) memo.set(text, text.toUpperCase());
    // Two of length 2 kept; the third is not remembered (and the first two still are).
    expect([memo.get('aa'), memo.get('bb'), memo.get('cc')]).toEqual(['AA', 'BB', undefined]);
    memo.set('xxx', 'X3');
    memo.set('xxxx', 'X4');
    expect(memo.size).toBe(4);
    // A fourth length: everything before it is forgotten, so a long run's memory stays bounded.
    memo.set('xxxxx', 'X5');
    expect([memo.get('aa'), memo.get('xxx'), memo.get('xxxxx')]).toEqual([undefined, undefined, 'X5']);
    expect(memo.size).toBe(1);
  });

  it('holds a bounded number of texts however many distinct ones a run brings', () => {
    const memo = new TextMemo<number>(8, 2);
    for (let i = 0; i < 10_000; i++) memo.set(`error ${'x'.repeat(i % 50)} ${i}`, i);
    expect(memo.size).toBeLessThanOrEqual(16);
  });

  it('refuses sizes that are not positive integers', () => {
    expect(() => new TextMemo(0)).toThrow(RangeError);
    expect(() => new TextMemo(4, 1.5)).toThrow(RangeError);
  });
});
