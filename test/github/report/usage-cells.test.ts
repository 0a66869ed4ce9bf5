import { describe, expect, it } from 'vitest';
import { costCell, NOT_REPORTED, tokensCell } from '../../../src/github/report/usage-cells.ts';

const usage = {
  costReported: true,
  inputTokens: 1200,
  outputTokens: 340,
  cacheReadTokens: 0,
  usd: 0.0123,
  unpricedModels: [] as string[],
};

describe('usage cells', () => {
  it('show tokens (with cached reads) and USD', () => {
    expect(tokensCell(usage)).toBe('1,200 in / 340 out');
    expect(tokensCell({ ...usage, cacheReadTokens: 800 })).toBe('1,200 in / 340 out (800 cached)');
    expect(costCell(usage)).toBe('$0.01');
    expect(costCell({ ...usage, usd: 0.0042 })).toBe('$0.0042');
  });

  it('say which models had no price, their tokens counted as $0, escaped for a table', () => {
    expect(costCell({ ...usage, usd: 0, unpricedModels: ['fake/fake-model'] })).toBe(
      '$0.00 (no price known for fake/fake-model: its tokens count as $0)',
    );
    expect(costCell({ ...usage, usd: 0, unpricedModels: ['(none)'] })).toBe(
      '$0.00 (no price known for the model (the agent named none): its tokens count as $0)',
    );
    const cell = costCell({ ...usage, unpricedModels: ['a|b', '@team'] });
    expect(cell).not.toContain('a|b');
    expect(cell).not.toMatch(/@team/);
  });

  it('say when the agent reported no usage at all, rather than 0 tokens and $0.00', () => {
    const none = { ...usage, costReported: false, inputTokens: 0, outputTokens: 0, usd: 0 };
    expect(tokensCell(none)).toBe(NOT_REPORTED);
    expect(costCell(none)).toBe(NOT_REPORTED);
    // Totals from the run's end count as reported even when no cost event was seen.
    expect(tokensCell({ ...none, inputTokens: 5 })).toBe('5 in / 0 out');
  });
});
