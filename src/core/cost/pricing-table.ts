import { z } from 'zod';

const usdPerMillion = z.number().nonnegative();

/** The price of one model in USD per million tokens. */
export const modelPriceSchema = z.strictObject({
  /** Uncached input tokens. */
  input: usdPerMillion,
  output: usdPerMillion,
  /** Input tokens read from the prompt cache. Default: the input price. */
  cacheRead: usdPerMillion.optional(),
  /** Input tokens written to the prompt cache. Default: the input price. */
  cacheWrite: usdPerMillion.optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** A pricing key: `provider/model`, e.g. `anthropic/claude-sonnet-4-6` or `custom/pi-2.5`. */
export const pricingKeySchema = z
  .string()
  .regex(/^[^/\s]+\/\S+$/, { error: 'expected a "provider/model" pricing key, e.g. "anthropic/claude-sonnet-4-6"' });

/**
 * Built-in prices, USD per million tokens. These are the providers' published list prices as
 * known when this table was written (standard tier, prompts under any long-context surcharge
 * threshold, no batch discount). They go stale: override or extend them with the `pricing`
 * map of the configuration file rather than editing this table.
 */
export const builtInPrices: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // Anthropic: cache write is the 5-minute cache write price.
  'anthropic/claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic/claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'anthropic/claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'anthropic/claude-sonnet-4-6': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'anthropic/claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  // OpenAI: caching is automatic; writes cost the input price.
  'openai/gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'openai/gpt-5-codex': { input: 1.25, output: 10, cacheRead: 0.125 },
  'openai/gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'openai/gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'openai/gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'openai/gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'openai/o3': { input: 2, output: 8, cacheRead: 0.5 },
  'openai/o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  // Google: prompts up to 200k tokens (Gemini 2.5 Pro costs more above that); no cache storage fees.
  'google/gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.125 },
  'google/gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03 },
  'google/gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.01 },
  'google/gemini-2.0-flash': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  // DeepSeek: cache miss = input, cache hit = cacheRead.
  'deepseek/deepseek-chat': { input: 0.28, output: 0.42, cacheRead: 0.028 },
  'deepseek/deepseek-reasoner': { input: 0.28, output: 0.42, cacheRead: 0.028 },
});

/** A successful lookup: the table key that matched and its price. */
export interface PriceMatch {
  key: string;
  price: ModelPrice;
}

/** Date or revision suffixes that providers append to model names: `-20250929`, `-2025-08-07`, `@20250514`, `-latest`, `-001`. */
const versionSuffix = /[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|latest|\d{3})$/;

/**
 * Prices by `provider/model` key: the built-in list prices, overridden and extended by entries
 * from configuration. Lookup is case-insensitive and also accepts a bare model name
 * (`claude-sonnet-4-6`), a name with another provider prefix (`vertex/claude-sonnet-4-6`,
 * `models/gemini-2.5-pro`) and a dated or revision name (`claude-sonnet-4-5-20250929`).
 * When two providers list the same model name, a configured entry wins over a built-in one.
 */
export class PricingTable {
  readonly #entries = new Map<string, PriceMatch>();
  readonly #byModel = new Map<string, PriceMatch>();
  readonly #cache = new Map<string, PriceMatch | null>();

  constructor(
    extra: Readonly<Record<string, ModelPrice>> = {},
    base: Readonly<Record<string, ModelPrice>> = builtInPrices,
  ) {
    for (const [key, price] of Object.entries(extra)) this.#add(key, price);
    for (const [key, price] of Object.entries(base)) {
      if (!this.#entries.has(key.toLowerCase())) this.#add(key, price);
    }
  }

  #add(key: string, price: ModelPrice): void {
    const match: PriceMatch = { key, price };
    const lower = key.toLowerCase();
    this.#entries.set(lower, match);
    const model = lower.slice(lower.lastIndexOf('/') + 1);
    if (!this.#byModel.has(model)) this.#byModel.set(model, match);
  }

  /** The price for a `provider/model` key or a model name, or undefined when none is known. */
  lookup(model: string): PriceMatch | undefined {
    const cached = this.#cache.get(model);
    if (cached !== undefined) return cached ?? undefined;
    const found = this.#find(model.trim().toLowerCase());
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(model, found ?? null);
    return found;
  }

  #find(name: string): PriceMatch | undefined {
    if (!name) return undefined;
    for (const candidate of [name, name.replace(versionSuffix, '')]) {
      const exact = this.#entries.get(candidate);
      if (exact) return exact;
      const byModel = this.#byModel.get(candidate.slice(candidate.lastIndexOf('/') + 1));
      if (byModel) return byModel;
    }
    return undefined;
  }

  /** Every key in the table, configured ones first. */
  keys(): string[] {
    return [...this.#entries.values()].map((m) => m.key);
  }
}

/** The table of built-in prices only. */
export const defaultPricingTable = new PricingTable();
