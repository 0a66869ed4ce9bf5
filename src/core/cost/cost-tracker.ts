import type { RunTotals } from '../events/index.ts';
import { priceUsage } from './price-usage.ts';
import { defaultPricingTable, type PricingTable } from './pricing-table.ts';

/** The cost fields of a `cost` event draft; extra fields are ignored. */
export interface CostDraft {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** USD reported by the agent: taken at face value, no price lookup. */
  usd?: number;
  /** The model the agent says it used; priced when the table knows it. */
  model?: string;
  /** These counts (and `usd`) are the running total of their source, not an increment. */
  cumulative?: boolean;
  /** Costs that are not tokens (image generation, tool fees): added verbatim. */
  extras?: readonly { label: string; usd: number }[];
}

/** What one cost event was worth. */
export interface PricedCost {
  /**
   * USD to stamp on the event, in the event's own terms: the increment's cost, or for a
   * cumulative event the running total it reports. Never negative.
   */
  usd: number;
  /** How much the run's total USD changed because of this event (negative if a cumulative total went down). */
  delta: number;
  /** True when the event's tokens counted as USD 0 because no price is known for its model. */
  unpriced: boolean;
  /** The model looked up: the matched pricing key when priced, else the cost model (or the event's model). */
  model?: string;
}

export interface CostTrackerOptions {
  /** The pricing key used when the event's own model is missing or unknown (the adapter's `costModel`). */
  costModel?: string;
  /** Default: the built-in list prices. */
  pricing?: PricingTable;
}

type Tally = Omit<RunTotals, 'unpricedModels'>;

const zero = (): Tally => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 });
const count = (n: number | undefined): number => (n !== undefined && n > 0 ? n : 0);

/**
 * Keeps a run's token and USD totals from its cost events and prices each event.
 *
 * Pricing: a reported `usd` is taken at face value. Otherwise the event's `model` is priced if
 * the table knows it, else the configured cost model; if neither is known the tokens count as
 * USD 0 and the result says `unpriced`. `extras` are added on top, verbatim.
 *
 * Sources: events are grouped by a source name (one per agent in the run; default `run`). An
 * increment adds to its source; a `cumulative` event replaces everything its source reported so far.
 */
export class CostTracker {
  readonly #costModel: string | undefined;
  readonly #pricing: PricingTable;
  readonly #sources = new Map<string, Tally>();
  readonly #totals: Tally = zero();
  readonly #unpriced = new Set<string>();

  constructor(options: CostTrackerOptions = {}) {
    this.#costModel = options.costModel;
    this.#pricing = options.pricing ?? defaultPricingTable;
  }

  /** Prices one cost event and adds it to the totals. */
  add(draft: CostDraft, source = 'run'): PricedCost {
    const tally: Tally = {
      inputTokens: count(draft.inputTokens),
      outputTokens: count(draft.outputTokens),
      cacheReadTokens: count(draft.cacheReadTokens),
      cacheWriteTokens: count(draft.cacheWriteTokens),
      usd: 0,
    };
    let unpriced = false;
    let model: string | undefined;
    if (draft.usd !== undefined && Number.isFinite(draft.usd)) {
      tally.usd = draft.usd;
      model = draft.model;
    } else {
      const match =
        (draft.model ? this.#pricing.lookup(draft.model) : undefined) ??
        (this.#costModel ? this.#pricing.lookup(this.#costModel) : undefined);
      if (match) {
        tally.usd = priceUsage(tally, match.price);
        model = match.key;
      } else {
        model = this.#costModel ?? draft.model;
        const tokens = tally.inputTokens + tally.outputTokens + tally.cacheReadTokens + tally.cacheWriteTokens;
        if (tokens > 0) {
          unpriced = true;
          this.#unpriced.add(model ?? '(none)');
        }
      }
    }
    if (draft.extras) for (const extra of draft.extras) if (Number.isFinite(extra.usd)) tally.usd += extra.usd;

    const previous = this.#sources.get(source) ?? zero();
    const next = draft.cumulative ? tally : sum(previous, tally, 1);
    this.#sources.set(source, next);
    const change = sum(next, previous, -1);
    Object.assign(this.#totals, sum(this.#totals, change, 1));
    return { usd: Math.max(0, tally.usd), delta: change.usd, unpriced, model };
  }

  /** The run's totals so far (a copy). */
  get totals(): RunTotals {
    const t = this.#totals;
    return {
      inputTokens: Math.max(0, t.inputTokens),
      outputTokens: Math.max(0, t.outputTokens),
      cacheReadTokens: Math.max(0, t.cacheReadTokens),
      cacheWriteTokens: Math.max(0, t.cacheWriteTokens),
      usd: Math.max(0, t.usd),
      ...(this.#unpriced.size > 0 ? { unpricedModels: [...this.#unpriced] } : {}),
    };
  }

  /** The totals one source reported so far, if it reported anything. */
  totalsOf(source: string): RunTotals | undefined {
    const tally = this.#sources.get(source);
    return tally ? { ...tally } : undefined;
  }

  /** The models whose tokens could not be priced (counted as USD 0). */
  get unpricedModels(): readonly string[] {
    return [...this.#unpriced];
  }
}

function sum(a: Tally, b: Tally, sign: 1 | -1): Tally {
  return {
    inputTokens: a.inputTokens + sign * b.inputTokens,
    outputTokens: a.outputTokens + sign * b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + sign * b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + sign * b.cacheWriteTokens,
    usd: a.usd + sign * b.usd,
  };
}
