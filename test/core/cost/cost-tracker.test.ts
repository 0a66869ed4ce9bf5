import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../src/core/cost/cost-tracker.ts';
import { PricingTable } from '../../../src/core/cost/pricing-table.ts';

describe('CostTracker', () => {
  it('prices tokens from the event model and keeps totals', () => {
    const tracker = new CostTracker();
    const first = tracker.add({ inputTokens: 1_000_000, outputTokens: 100_000, model: 'claude-sonnet-4-6' });
    expect(first).toEqual({ usd: 4.5, delta: 4.5, unpriced: false, model: 'anthropic/claude-sonnet-4-6' });
    tracker.add({
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 1_000_000,
      cacheWriteTokens: 1_000_000,
      model: 'claude-sonnet-4-6',
    });
    expect(tracker.totals).toEqual({
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      cacheReadTokens: 1_000_000,
      cacheWriteTokens: 1_000_000,
      usd: 4.5 + 0.3 + 3.75,
    });
  });

  it('falls back to the configured cost model when the event names none or an unknown one', () => {
    const tracker = new CostTracker({ costModel: 'deepseek/deepseek-chat' });
    expect(tracker.add({ inputTokens: 1_000_000, outputTokens: 0 }).usd).toBeCloseTo(0.28, 12);
    expect(tracker.add({ inputTokens: 1_000_000, outputTokens: 0, model: 'my-local-model' }).model).toBe(
      'deepseek/deepseek-chat',
    );
  });

  it('prices the seed example: gemini-2.0-flash tokens under costModel google/gemini-2.0, plus extras', () => {
    const tracker = new CostTracker({ costModel: 'google/gemini-2.0' });
    const priced = tracker.add({
      model: 'gemini-2.0-flash',
      inputTokens: 15_200,
      outputTokens: 3100,
      extras: [{ label: 'image_gen', usd: 0.12 }],
    });
    expect(priced.usd).toBeCloseTo((15_200 * 0.1 + 3100 * 0.4) / 1e6 + 0.12, 12);
    expect(priced.unpriced).toBe(false);
  });

  it('takes a reported usd at face value and skips the lookup', () => {
    const tracker = new CostTracker({ costModel: 'custom/pi-2.5' });
    const priced = tracker.add({ inputTokens: 5000, outputTokens: 100, usd: 0.42 });
    expect(priced).toEqual({ usd: 0.42, delta: 0.42, unpriced: false, model: undefined });
    expect(tracker.add({ inputTokens: 1e6, outputTokens: 0, usd: 0, model: 'claude-opus-4-1' }).usd).toBe(0);
    expect(tracker.totals).toEqual({
      inputTokens: 1_005_000,
      outputTokens: 100,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      usd: 0.42,
    });
    expect(tracker.unpricedModels).toEqual([]);
  });

  it('adds extras verbatim on top of a face-value usd', () => {
    const tracker = new CostTracker();
    const priced = tracker.add({ inputTokens: 0, outputTokens: 0, usd: 0.1, extras: [{ label: 'search', usd: 0.05 }] });
    expect(priced.usd).toBeCloseTo(0.15, 12);
    expect(tracker.totals.usd).toBeCloseTo(0.15, 12);
  });

  it('counts unpriced tokens as USD 0 and says so', () => {
    const tracker = new CostTracker({ costModel: 'custom/pi-2.5' });
    const priced = tracker.add({ inputTokens: 100, outputTokens: 10, extras: [{ label: 'gpu', usd: 0.2 }] });
    expect(priced).toEqual({ usd: 0.2, delta: 0.2, unpriced: true, model: 'custom/pi-2.5' });
    expect(tracker.unpricedModels).toEqual(['custom/pi-2.5']);
    expect(tracker.totals).toMatchObject({ inputTokens: 100, outputTokens: 10, usd: 0.2 });
    // No tokens: nothing to price, not unpriced.
    expect(tracker.add({ inputTokens: 0, outputTokens: 0 }).unpriced).toBe(false);
    expect(new CostTracker().add({ inputTokens: 1, outputTokens: 0 })).toMatchObject({
      unpriced: true,
      model: undefined,
    });
  });

  it('replaces a source with a cumulative event instead of adding it', () => {
    const tracker = new CostTracker();
    tracker.add({ inputTokens: 1000, outputTokens: 100, usd: 0.01 });
    tracker.add({ inputTokens: 2000, outputTokens: 200, usd: 0.02 });
    expect(tracker.totals).toMatchObject({ inputTokens: 3000, outputTokens: 300 });
    expect(tracker.totals.usd).toBeCloseTo(0.03, 12);

    // The agent's final report: the run's running total so far.
    const final = tracker.add({ inputTokens: 3500, outputTokens: 350, usd: 0.05, cumulative: true });
    expect(final.usd).toBe(0.05); // stamped on the event: its own (cumulative) figure
    expect(final.delta).toBeCloseTo(0.02, 12); // how much the total moved
    expect(tracker.totals).toMatchObject({ inputTokens: 3500, outputTokens: 350 });
    expect(tracker.totals.usd).toBeCloseTo(0.05, 12);

    // A second cumulative report replaces the first.
    tracker.add({ inputTokens: 4000, outputTokens: 400, usd: 0.06, cumulative: true });
    expect(tracker.totals).toMatchObject({ inputTokens: 4000, outputTokens: 400 });
    expect(tracker.totals.usd).toBeCloseTo(0.06, 12);
  });

  it('prices cumulative tokens and keeps sources apart', () => {
    const tracker = new CostTracker();
    tracker.add({ inputTokens: 1e6, outputTokens: 0, model: 'gpt-5', cumulative: true }, 'main');
    tracker.add({ inputTokens: 1e6, outputTokens: 0, model: 'gpt-5-mini' }, 'subagent');
    tracker.add({ inputTokens: 2e6, outputTokens: 0, model: 'gpt-5', cumulative: true }, 'main');
    expect(tracker.totalsOf('main')).toMatchObject({ inputTokens: 2e6, usd: 2.5 });
    expect(tracker.totalsOf('subagent')).toMatchObject({ inputTokens: 1e6, usd: 0.25 });
    expect(tracker.totals).toMatchObject({ inputTokens: 3e6, usd: 2.75 });
  });

  it('stamps a non-negative usd even when a cumulative total goes down', () => {
    const tracker = new CostTracker();
    tracker.add({ inputTokens: 10, outputTokens: 0, usd: 1 });
    const lower = tracker.add({ inputTokens: 10, outputTokens: 0, usd: 0.5, cumulative: true });
    expect(lower.usd).toBe(0.5);
    expect(lower.delta).toBe(-0.5);
    expect(tracker.totals.usd).toBe(0.5);
  });

  it('uses the configured pricing table', () => {
    const tracker = new CostTracker({
      costModel: 'custom/pi-2.5',
      pricing: new PricingTable({ 'custom/pi-2.5': { input: 0.5, output: 1.5 } }),
    });
    expect(tracker.add({ inputTokens: 1e6, outputTokens: 1e6 })).toMatchObject({
      usd: 2,
      unpriced: false,
      model: 'custom/pi-2.5',
    });
  });

  it('accepts a whole cost event (extra fields ignored) and returns totals as copies', () => {
    const tracker = new CostTracker();
    const event = {
      type: 'cost' as const,
      runId: 'r',
      agent: 'a',
      timestamp: 1,
      inputTokens: 1,
      outputTokens: 1,
      usd: 1,
    };
    tracker.add(event);
    const totals = tracker.totals;
    totals.usd = 99;
    expect(tracker.totals.usd).toBe(1);
  });
});
