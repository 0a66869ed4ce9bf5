import type { DraftOf } from '../../../core/events/index.ts';
import { isObj, num, type Obj, whole } from '../../shared/record-fields.ts';
import type { ClaudeTally, ClaudeTranslatorState } from './claude-state.ts';

/** An empty tally. */
export function emptyTally(): ClaudeTally {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, thinking: 0, models: new Set() };
}

/**
 * The run's running total after a `result`. Claude Code's `total_cost_usd` and `modelUsage` count the
 * whole session, earlier runs of a resumed one included; `model_usage_since_last_result` (or `usage`)
 * counts this turn only. So the turns of this process are summed here and reported as `cumulative`,
 * which replaces the per-message increments streamed before.
 */
export function claudeTotalCost(value: Obj, state: ClaudeTranslatorState): DraftOf<'cost'> | undefined {
  const turn = turnUsage(value, state);
  if (!turn) return undefined;
  const run = state.runCost;
  run.input += turn.input;
  run.output += turn.output;
  run.cacheRead += turn.cacheRead;
  run.cacheWrite += turn.cacheWrite;
  run.thinking += turn.thinking;
  run.usd = run.usd === undefined || turn.usd === undefined ? undefined : run.usd + turn.usd;
  for (const model of turn.models) run.models.add(model);
  return {
    type: 'cost',
    inputTokens: whole(run.input),
    outputTokens: whole(run.output),
    cacheReadTokens: whole(run.cacheRead),
    cacheWriteTokens: whole(run.cacheWrite),
    thinkingTokens: run.thinking > 0 ? whole(run.thinking) : undefined,
    model: run.models.size === 1 ? [...run.models][0] : undefined,
    usd: run.usd !== undefined && run.usd >= 0 ? run.usd : undefined,
    cumulative: true,
  };
}

function turnUsage(value: Obj, state: ClaudeTranslatorState): ClaudeTally | undefined {
  const since = isObj(value.model_usage_since_last_result) ? value.model_usage_since_last_result : undefined;
  const tally = emptyTally();
  if (since) {
    let usd: number | undefined = 0;
    for (const [model, u] of Object.entries(since)) {
      if (!isObj(u)) continue;
      tally.models.add(model);
      tally.input += num(u.inputTokens) ?? 0;
      tally.output += num(u.outputTokens) ?? 0;
      tally.cacheRead += num(u.cacheReadInputTokens) ?? 0;
      tally.cacheWrite += num(u.cacheCreationInputTokens) ?? 0;
      tally.thinking += num(u.thinkingTokens) ?? 0;
      const cost = num(u.costUSD);
      usd = usd === undefined || cost === undefined ? undefined : usd + cost;
    }
    tally.usd = usd;
    return tally;
  }
  const usd = num(value.total_cost_usd);
  if (!isObj(value.usage)) {
    if (usd === undefined) return undefined;
  } else {
    const u = value.usage;
    tally.input = num(u.input_tokens) ?? 0;
    tally.output = num(u.output_tokens) ?? 0;
    tally.cacheRead = num(u.cache_read_input_tokens) ?? 0;
    tally.cacheWrite = num(u.cache_creation_input_tokens) ?? 0;
    tally.thinking = isObj(u.output_tokens_details) ? (num(u.output_tokens_details.thinking_tokens) ?? 0) : 0;
  }
  if (isObj(value.modelUsage)) for (const model of Object.keys(value.modelUsage)) tally.models.add(model);
  // Without a per-turn figure, the session total is this run's only for a fresh session's first turn.
  if (usd !== undefined && !state.request?.resumeSessionId && state.turn <= 1) tally.usd = usd;
  return tally;
}
