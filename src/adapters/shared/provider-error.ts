import type { EventDraft } from '../../core/events/index.ts';
import { TextMemo } from './text-memo.ts';

/** What kind of failure a model provider's error is. */
export type ProviderErrorKind = 'auth' | 'rate_limit' | 'context' | 'overloaded';

/** How one kind is recognised: by HTTP status, or by words in the message. */
export interface ProviderErrorRule {
  statuses?: readonly number[];
  patterns?: readonly RegExp[];
}

/**
 * An adapter's table of the statuses and messages its agent prints for each kind, added to the
 * common ones below, and the guidance its `auth_error` gives.
 */
export interface ProviderErrorTable {
  auth?: ProviderErrorRule;
  rateLimit?: ProviderErrorRule;
  context?: ProviderErrorRule;
  overloaded?: ProviderErrorRule;
  /** Said with `auth_error`: where the agent's key or login comes from. */
  authGuidance?: string;
}

/** What every provider's messages share (OpenAI, Anthropic, Google and their CLIs' wording). */
export const COMMON_PROVIDER_ERRORS: Required<Omit<ProviderErrorTable, 'authGuidance'>> = {
  auth: {
    statuses: [401, 403],
    patterns: [/unauthori[sz]ed|invalid[_ ]api[_ ]key|incorrect api key|authentication[_ ]error|not logged in/i],
  },
  rateLimit: {
    statuses: [429],
    patterns: [/rate[ _-]?limit|too many requests|quota|RESOURCE_EXHAUSTED|usage limit/i],
  },
  context: {
    patterns: [/context[ _-]?(window|length)|maximum context|too many tokens|prompt is too long/i],
  },
  overloaded: {
    statuses: [503, 529],
    patterns: [/overloaded/i],
  },
};

/** The table of an adapter that adds nothing to the common rules. */
const EMPTY_TABLE: ProviderErrorTable = {};

const ORDER: readonly [ProviderErrorKind, keyof typeof COMMON_PROVIDER_ERRORS][] = [
  ['auth', 'auth'],
  ['rate_limit', 'rateLimit'],
  ['context', 'context'],
  ['overloaded', 'overloaded'],
];

function matches(rule: ProviderErrorRule | undefined, message: string): boolean {
  const patterns = rule?.patterns;
  if (!patterns) return false;
  for (let i = 0; i < patterns.length; i++) if (patterns[i]!.test(message)) return true;
  return false;
}

function hasStatus(rule: ProviderErrorRule | undefined, status: number): boolean {
  return rule?.statuses?.includes(status) ?? false;
}

/**
 * Every pattern of the common rules and the table's in one case-insensitive alternation: a message
 * it does not match is none of the kinds, found with one scan instead of one per pattern (most
 * errors an agent prints are not a provider's). It matches more than the patterns do (case aside),
 * never less, so it only decides "none".
 */
const anyPatternOf = new WeakMap<ProviderErrorTable, RegExp>();

function anyPattern(table: ProviderErrorTable): RegExp {
  let any = anyPatternOf.get(table);
  if (!any) {
    const patterns = ORDER.flatMap(([, key]) => [
      ...(COMMON_PROVIDER_ERRORS[key].patterns ?? []),
      ...(table[key]?.patterns ?? []),
    ]);
    // A flag other than `i` (or a back-reference, numbered in its own pattern) would not carry over: then no shortcut.
    const plain = patterns.every((pattern) => /^i?$/.test(pattern.flags) && !/\\[1-9k]/.test(pattern.source));
    any = plain ? new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'), 'i') : /(?:)/;
    anyPatternOf.set(table, any);
  }
  return any;
}

/**
 * The kind of a provider error, from its HTTP status (given, or named in the message) and its
 * words; undefined when it is none of them. Statuses decide before words.
 */
export function providerErrorKind(
  message: string,
  table: ProviderErrorTable = EMPTY_TABLE,
  status: number | undefined = httpStatusOf(message),
): ProviderErrorKind | undefined {
  if (status !== undefined) {
    for (const [kind, key] of ORDER) {
      if (hasStatus(COMMON_PROVIDER_ERRORS[key], status) || hasStatus(table[key], status)) return kind;
    }
  }
  if (!anyPattern(table).test(message)) return undefined;
  for (const [kind, key] of ORDER) {
    if (matches(COMMON_PROVIDER_ERRORS[key], message) || matches(table[key], message)) return kind;
  }
  return undefined;
}

export interface ProviderErrorOptions {
  status?: number;
  retryAfterMs?: number;
  /** What an error of no known kind becomes; default a fatal `agent_error`. */
  fallback?: EventDraft;
}

/**
 * A provider error as the typed draft the event contract has for it: `auth_error`,
 * `rate_limit_error` (also for an overloaded provider: both are retried later), `context_exceeded`,
 * else `fallback`.
 */
export function providerErrorDraft(
  message: string,
  table: ProviderErrorTable = EMPTY_TABLE,
  options: ProviderErrorOptions = {},
): EventDraft {
  const plain = options.status === undefined && options.retryAfterMs === undefined && options.fallback === undefined;
  if (!plain) return draftOf(message, table, options);
  // A message read before (a long run repeats its few errors): a copy of its draft, without the
  // regular expressions over the message again (issue 18).
  const memo = memoOf(table);
  let draft = memo.get(message);
  if (draft === undefined) {
    draft = draftOf(message, table, options);
    memo.set(message, draft);
  }
  return { ...draft };
}

/** Drafts of plain messages already read, per table (bounded: {@link TextMemo}). */
const drafts = new WeakMap<ProviderErrorTable, TextMemo<EventDraft>>();

function memoOf(table: ProviderErrorTable): TextMemo<EventDraft> {
  let memo = drafts.get(table);
  if (memo === undefined) {
    memo = new TextMemo();
    drafts.set(table, memo);
  }
  return memo;
}

function draftOf(message: string, table: ProviderErrorTable, options: ProviderErrorOptions): EventDraft {
  switch (providerErrorKind(message, table, options.status ?? httpStatusOf(message))) {
    case 'auth':
      return table.authGuidance === undefined
        ? { type: 'auth_error', message }
        : { type: 'auth_error', message, guidance: table.authGuidance };
    case 'rate_limit':
    case 'overloaded': {
      const retryAfterMs = options.retryAfterMs ?? retryAfterMsOf(message);
      return retryAfterMs === undefined
        ? { type: 'rate_limit_error', message }
        : { type: 'rate_limit_error', message, retryAfterMs };
    }
    case 'context':
      return { type: 'context_exceeded', message };
    default:
      return options.fallback ?? { type: 'error', code: 'agent_error', message, recoverable: false };
  }
}

const THREE_DIGITS = /\d{3}/;

/**
 * The HTTP status an error message names: `"code":401`, `API Error: 429`, `status: 401`,
 * `got status: 403`, `429 Too Many Requests`, `(401)`.
 */
export function httpStatusOf(message: string): number | undefined {
  // Most messages name no number at all: one scan settles it.
  if (!THREE_DIGITS.test(message)) return undefined;
  const match =
    /"(?:code|status)"\s*:\s*(\d{3})\b/.exec(message) ??
    /API Error:\s*(\d{3})\b/i.exec(message) ??
    /\bstatus(?: code)?:?\s*(\d{3})\b/i.exec(message) ??
    /^\s*(\d{3})\s+[A-Z][a-z]/.exec(message) ??
    /\((\d{3})\)/.exec(message);
  const status = match?.[1] ? Number(match[1]) : undefined;
  return status !== undefined && status >= 400 && status < 600 ? status : undefined;
}

/** `ms` / `milliseconds` → 1, `m` / `min` / `minutes` → 60 000, anything else (seconds) → 1000. */
function unitMs(unit: string | undefined): number {
  const lower = unit?.toLowerCase() ?? 's';
  if (lower === 'ms' || lower.startsWith('milli')) return 1;
  if (lower.startsWith('m')) return 60_000;
  return 1000;
}

/**
 * `retryDelay: "1s"`, `try again in 1s`, `retry after 2.5s`, `Retry-After: 3`, `try again in 2
 * minutes` → milliseconds.
 */
export function retryAfterMsOf(message: string): number | undefined {
  const match =
    /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)(s)"/.exec(message) ??
    /(?:try again in|retry (?:in|after)|retry-after:?)\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i.exec(
      message,
    );
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  if (!Number.isFinite(value) || value < 0) return undefined;
  return Math.round(value * unitMs(match[2]));
}
