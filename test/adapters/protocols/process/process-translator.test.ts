import { describe, expect, it } from 'vitest';
import { processTranslator } from '../../../../src/adapters/protocols/process/process-translator.ts';

const translate = (records: unknown[]) => {
  const state = processTranslator.init({ debug: false });
  return records.flatMap((value) => processTranslator.translate({ kind: 'json', value }, state));
};

describe('processTranslator cost', () => {
  it('reports the running total once per change: a progress and the final record that repeat it add no cost line', () => {
    const cost = { inputTokens: 1200, outputTokens: 180, usd: 0.0042 };
    const events = translate([
      { type: 'progress', summary: 'Reading', cost: { inputTokens: 100, outputTokens: 10, usd: 0.001 } },
      { type: 'progress', summary: 'Wrote it', cost },
      { type: 'progress', summary: 'Done, restating', cost },
      { type: 'complete', output: { summary: 'ok' }, cost },
    ]);
    const costs = events.filter((e) => e.type === 'cost');
    expect(costs).toEqual([
      expect.objectContaining({ inputTokens: 100, outputTokens: 10, usd: 0.001, cumulative: true }),
      expect.objectContaining({ inputTokens: 1200, outputTokens: 180, usd: 0.0042, cumulative: true }),
    ]);
    expect(events.filter((e) => e.type === 'progress')).toHaveLength(3);
  });
});
