import { describe, expect, it } from 'vitest';
import { runKeys } from '../../../src/app/store/run-keys.ts';

describe('runKeys', () => {
  it.each([
    { number: 12, expected: { repoKey: 'octo/app', issueKey: 'octo/app#12' } },
    { number: undefined, expected: { repoKey: 'octo/app', issueKey: 'octo/app#' } },
  ])('keys issue $number', ({ number, expected }) => {
    expect(runKeys({ repo: { owner: 'octo', repo: 'app' }, number })).toEqual(expected);
  });
});
