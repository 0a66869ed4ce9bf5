import { maskUnrendered } from './mask-unrendered.ts';

/** What a comment asks for. */
export type Command =
  | {
      kind: 'run';
      agent?: string;
      prompt: string;
      /** `@agent new: …`: start a new conversation instead of continuing the last run's. */
      fresh?: boolean;
    }
  | { kind: 'cancel' }
  | { kind: 'approve'; approvalId: string }
  | { kind: 'deny'; approvalId: string; reason?: string }
  /** `/budget 5` (US dollars) or `/budget 400000 tokens`: raise a paused run's budget to this total. */
  | { kind: 'budget'; amount: number; unit: 'usd' | 'tokens' };

export interface ParseCommandOptions {
  /** The trigger phrase, matched as a whole word and case-insensitively. Default `@agent`. */
  phrase?: string;
  /** Configured agent names that a command may pick (`codex: …`, `use codex to …`, `with codex: …`). */
  agents: readonly string[];
}

/** The default trigger phrase. */
export const defaultTriggerPhrase = '@agent';

/**
 * Reads the command in a comment, review or issue body, or returns undefined when there is none. Pure.
 *
 * Only text GitHub renders as the author's visible prose counts (see {@link maskUnrendered}): nothing in code (fenced,
 * indented, inline), block quotes (lazy continuation lines too), raw HTML (comments, `<span hidden>`, any element),
 * image alt text, or link URLs and titles.
 *
 * - `/approve <id>` and `/deny <id> [reason]` at the start of a line of a rendered paragraph need no phrase and win over it;
 *   the reason is the rest of the text after the id. So does `/budget <amount>` (`/budget 5`, `/budget $5.50`,
 *   `/budget 400000 tokens`), which raises a paused run's budget.
 * - Otherwise the first whole-word occurrence of the phrase (not in `@agents`, `x@agent`, `@agent-bot`,
 *   `me@agent.com`) in rendered text starts the command. Punctuation right after it is skipped.
 *   `cancel` alone (punctuation allowed) cancels; otherwise an agent may be named with `<agent>: …`,
 *   `use <agent> to …`, `use <agent>: …` or `with <agent>: …` (configured names only, so ordinary English is never
 *   taken for an agent), and the prompt is the rest of the text, trimmed (possibly empty: the caller decides).
 * - `new:` first (`@agent new: …`, `@agent new: codex: …`) starts a new conversation (`fresh`) instead of
 *   continuing the or pull request's last run.
 */
export function parseCommand(text: string, options: ParseCommandOptions): Command | undefined {
  const source = text.replace(/\r\n?/g, '\n');
  const phrase = (options.phrase ?? defaultTriggerPhrase).trim();
  // Most comments ask nothing: without the words of a decision or of the phrase anywhere in the
  // text there is none in its rendered part either, and the Markdown parse is skipped.
  if (!mayHoldCommand(source, phrase)) return undefined;
  const masked = maskUnrendered(source);
  const decision = readDecision(source, masked);
  if (decision) return decision;
  if (!phrase) return undefined;
  const match = phrasePattern(phrase).exec(masked);
  if (!match) return undefined;
  // Text reordered for display: what the reader sees (the phrase, the request) is not what was written.
  if (BIDI_CONTROL.test(masked)) return undefined;
  return readRequest(source.slice(match.index + match[0].length), options.agents);
}

const decisionLine = /^[ \t]*\/(approve|deny)[ \t]+([A-Za-z0-9_-]+)(?=$|[\s.,;:!)])/i;
/** `/budget 5`, `/budget $5.50`, `/budget 400000 tokens`: a whole number of tokens, dollars to the cent. */
const budgetLine =
  /^[ \t]*\/budget[ \t]+(?:\$[ \t]?(\d{1,7}(?:\.\d{1,2})?)|(\d{1,10})[ \t]+tokens?|(\d{1,7}(?:\.\d{1,2})?)(?:[ \t]*(?:usd|dollars?|\$))?)(?=$|[\s,;:!)]|\.(?!\d))/i;
const decisionWord = /\/(?:approve|deny|budget)/i;

/**
 * False only when `source` cannot hold a command: masking blanks characters to spaces in place, so
 * every character of a decision or of the phrase (but its spaces) that `parseCommand` finds in the
 * masked text stands at the same place in the source, matched the same (case-insensitive) way.
 */
function mayHoldCommand(source: string, phrase: string): boolean {
  if (decisionWord.test(source)) return true;
  return phraseWords(phrase).every((word) => word.test(source));
}

/** The words of each phrase seen, as case-insensitive patterns (a process sees a few phrases). */
const wordPatterns = new Map<string, RegExp[]>();

function phraseWords(phrase: string): RegExp[] {
  let words = wordPatterns.get(phrase);
  if (words === undefined) {
    const parts = phrase.split(/\s+/).filter(Boolean);
    // No phrase: nothing can match it (an empty list would pass every text).
    words = parts.length === 0 ? [/(?!)/] : parts.map((word) => new RegExp(escapeRegExp(word), 'iu'));
    if (wordPatterns.size >= 100) wordPatterns.clear();
    wordPatterns.set(phrase, words);
  }
  return words;
}

/** A decision is a rendered line that starts with it: nothing but white space before it, not even Markdown syntax. */
function readDecision(source: string, masked: string): Command | undefined {
  let offset = 0;
  for (const line of masked.split('\n')) {
    const budget = budgetLine.exec(line);
    if (budget && /^[ \t]*$/.test(source.slice(offset, offset + budget[0].indexOf('/')))) {
      const tokens = budget[2];
      if (tokens !== undefined && Number(tokens) > 0) return { kind: 'budget', amount: Number(tokens), unit: 'tokens' };
      const amount = Number(budget[1] ?? budget[3]);
      if (amount > 0) return { kind: 'budget', amount, unit: 'usd' };
    }
    const match = decisionLine.exec(line);
    const slash = match ? match[0].indexOf('/') : -1;
    if (match && /^[ \t]*$/.test(source.slice(offset, offset + slash))) {
      const approvalId = match[2]!;
      if (match[1]!.toLowerCase() === 'approve') return { kind: 'approve', approvalId };
      const reason = source
        .slice(offset + match[0].length)
        .replace(/^[ \t]*[:,;.—–-]*/, '')
        .trim();
      return reason ? { kind: 'deny', approvalId, reason } : { kind: 'deny', approvalId };
    }
    offset += line.length + 1;
  }
  return undefined;
}

/**
 * Invisible characters a reader does not see but that join or hide text: format characters
 * (zero-width space, joiner, non-joiner, word joiner, soft hyphen, …) and combining marks. Next to
 * the phrase they make it read as another word (`@agent\u200dsmith` shows `@agentsmith`,
 * `mail\u200b@agent` shows `mail@agent`): no trigger.
 */
const INVISIBLE = '\\p{Cf}\\p{M}';
/** Bidirectional overrides and isolates: the text a reader sees is reordered (`@agent` may read reversed). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

function phrasePattern(phrase: string): RegExp {
  const before = `(?<![\\p{L}\\p{N}_@./\`\\-${INVISIBLE}])`;
  const after = `(?![\\p{L}\\p{N}_\\-${INVISIBLE}]|[./@][\\p{L}\\p{N}_])`;
  return new RegExp(before + escapeRegExp(phrase) + after, 'iu');
}

function readRequest(rest: string, agents: readonly string[]): Command {
  const request = rest.replace(/^[ \t]*(?:[,:;.!?)\]—–]+|-+(?=[ \t]))?/, '').trim();
  if (/^cancel[.!\s]*$/i.test(request)) return { kind: 'cancel' };
  const fresh = /^new(?:[ \t]*:|[ \t]*$)/i.exec(request);
  if (fresh) {
    const command = readRequest(request.slice(fresh[0].length), agents);
    return command.kind === 'run' ? { ...command, fresh: true } : command;
  }
  const names = agents.filter((name) => name.trim() !== '');
  if (names.length > 0) {
    const alternatives = [...names]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|');
    const forms = [
      new RegExp(`^(?:use|using)\\s+(${alternatives})(?:\\s+to\\b|\\s*:|\\s*$)`, 'iu'),
      new RegExp(`^with\\s+(${alternatives})\\s*:`, 'iu'),
      new RegExp(`^(${alternatives})\\s*:`, 'iu'),
    ];
    for (const form of forms) {
      const match = form.exec(request);
      if (!match) continue;
      const said = match[1]!.toLowerCase();
      const agent = names.find((name) => name.toLowerCase() === said)!;
      return { kind: 'run', agent, prompt: request.slice(match[0].length).trim() };
    }
  }
  return { kind: 'run', prompt: request };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
