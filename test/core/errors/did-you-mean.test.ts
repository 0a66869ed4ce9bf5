import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../../src/core/errors/did-you-mean.ts';

describe('editDistance', () => {
  it.each([
    ['adapter', 'adapter', 0],
    ['adpater', 'adapter', 1],
    ['rn', 'run', 1],
    ['simualte', 'simulate', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
  it('counts a swap 2 without swaps', () => {
    expect(editDistance('adpater', 'adapter', { swaps: false })).toBe(2);
    expect(editDistance('kitten', 'sitting', { swaps: false })).toBe(3);
  });
});

describe('didYouMean', () => {
  const commands = ['run', 'replay', 'adapters', 'serve', 'simulate'];
  it('suggests the closest candidate within a third of the word', () => {
    expect(didYouMean('rn', commands)).toBe('run');
    expect(didYouMean('sreve', commands)).toBe('serve');
    expect(didYouMean('adpaters', commands)).toBe('adapters');
    expect(didYouMean('RUN', commands)).toBe('run');
  });
  it('suggests the only candidate the word begins', () => {
    expect(didYouMean('simul', commands)).toBe('simulate');
    expect(didYouMean('se', commands)).toBe('serve');
    expect(didYouMean('re', ['replay', 'report'])).toBeUndefined();
  });
  it('suggests nothing when nothing is close', () => {
    expect(didYouMean('frobnicate', commands)).toBeUndefined();
    expect(didYouMean('xyz', commands)).toBeUndefined();
  });
});
