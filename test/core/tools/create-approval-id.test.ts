import { describe, expect, it } from 'vitest';
import {
  APPROVAL_ID_ALPHABET,
  APPROVAL_ID_LENGTH,
  createApprovalId,
  createApprovalIdSource,
} from '../../../src/core/tools/create-approval-id.ts';

describe('approval ids', () => {
  it('are 8 lower-case, URL-safe characters without i, l, o, u', () => {
    expect(APPROVAL_ID_ALPHABET).toHaveLength(32);
    for (let i = 0; i < 500; i++) {
      const id = createApprovalId();
      expect(id).toHaveLength(APPROVAL_ID_LENGTH);
      expect(id).toMatch(/^[0-9a-hjkmnp-tv-z]+$/);
      expect(encodeURIComponent(id)).toBe(id);
    }
  });

  it('use every letter of the alphabet (no bias to a few)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of createApprovalId()) seen.add(c);
    expect([...seen].sort().join('')).toBe([...APPROVAL_ID_ALPHABET].sort().join(''));
  });

  it('never repeat within one source, even when the random draws do', () => {
    const draws = ['aaaa1111', 'aaaa1111', 'bbbb2222'];
    const next = createApprovalIdSource(() => draws.shift() ?? 'aaaa1111');
    expect([next(), next(), next()]).toEqual(['aaaa1111', 'bbbb2222', 'aaaa1111-2']);
    expect(next()).toBe('aaaa1111-3');
  });

  it('10 000 ids of one source are distinct', () => {
    const next = createApprovalIdSource();
    const ids = new Set(Array.from({ length: 10_000 }, () => next()));
    expect(ids.size).toBe(10_000);
  });
});
