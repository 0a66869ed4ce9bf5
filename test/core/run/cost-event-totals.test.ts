import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../src/core/cost/cost-tracker.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import { Redactor } from '../../../src/core/redact/redactor.ts';
import { RunEmitter } from '../../../src/core/run/run-emitter.ts';

describe('cost events carry the running totals', () => {
  it('stamps each priced cost event with the totals so far, increments and cumulative reports alike', () => {
    const events: AgentEvent[] = [];
    const emitter = new RunEmitter({
      runId: 'r1',
      agent: 'demo',
      debug: false,
      redactor: new Redactor(),
      costs: new CostTracker(),
      onEvent: (event) => events.push(event),
    });
    emitter.emit({ type: 'cost', inputTokens: 10, outputTokens: 1, usd: 0.5 });
    emitter.emit({ type: 'cost', inputTokens: 10, outputTokens: 1, usd: 0.5 });
    emitter.emit({ type: 'cost', inputTokens: 100, outputTokens: 7, usd: 2, cumulative: true });
    const totals = events.flatMap((e) => (e.type === 'cost' ? [e.totals] : []));
    expect(totals).toEqual([
      { inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0.5 },
      { inputTokens: 20, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 1 },
      { inputTokens: 100, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 2 },
    ]);
    const end = emitter.end({ type: 'run_end', reason: 'completed', durationMs: 1, attempts: 1 });
    expect(end.totals).toEqual(totals.at(-1));
  });
});
