import { describe, expect, it } from 'vitest';
import { reviewRequestOf } from '../../../src/github/review/review-request.ts';

describe('reviewRequestOf', () => {
  it.each([
    ['review', ''],
    ['Review this PR', ''],
    ['review please!', ''],
    ['review: look at the error handling', 'look at the error handling'],
    ['review the locking in store.ts', 'the locking in store.ts'],
  ])('%j asks for a review focused on %j', (prompt, focus) => {
    expect(reviewRequestOf(prompt)).toEqual({ focus });
  });

  it.each(['reviewer: add me', 'fix the review comments', "review's wording is off", 're-view', ''])(
    '%j is not a review',
    (prompt) => {
      expect(reviewRequestOf(prompt)).toBeUndefined();
    },
  );
});
