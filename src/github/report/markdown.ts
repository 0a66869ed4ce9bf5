/** Small Markdown helpers for text that came from an agent or a user: nothing in it may format, mention or break out. */

const SPECIAL = /[\\`*_[\]<>|#~&!]/g;
const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/** Collapses whitespace (newlines included) to single spaces and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `text` on one line and at most `max` characters; only the start of a long text is looked at. */
export function clip(text: string, max: number): string {
  return truncate(oneLine(text.slice(0, max * 4 + 64)), max);
}

/** Cuts `text` to at most `max` characters, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? text.slice(0, Math.max(0, max)) : `${text.slice(0, max - 1)}…`;
}

/**
 * Plain text for a Markdown paragraph or table cell: one line, Markdown and HTML characters escaped,
 * `@mentions` broken with a zero-width space so nobody is notified.
 */
export function escapeText(text: string): string {
  return oneLine(text)
    .replace(SPECIAL, (c) => ENTITIES[c] ?? `\\${c}`)
    .replace(/@(?=\w)/g, '@\u200b');
}

/**
 * An agent's Markdown quoted whole (cut at `max` characters, saying so): shown as Markdown, but its
 * `@mentions` notify nobody and an HTML comment in it cannot pose as one of agent-mux's markers
 * (`<!-- agent-mux:… -->`, which a later run reads).
 */
export function quoteAgentMarkdown(text: string, max: number): string {
  const trimmed = text.trim();
  const cut = trimmed.length > max ? `${trimmed.slice(0, max)}\n\n_… cut at ${max} characters._` : trimmed;
  return cut
    .replace(/<!--/g, '&lt;!--')
    .replace(/@(?=\w)/g, '@\u200b')
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** The longest run of backticks in `text`. */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

/** `text` as one line of inline code, with a delimiter longer than any backtick run inside. */
export function inlineCode(text: string): string {
  const flat = oneLine(text);
  if (flat === '') return '` `';
  const fence = '`'.repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** The fence for a code block around `text`: at least three backticks, longer than any run inside. */
export function codeFence(text: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
}

/** A fenced code block that `content` cannot close. */
export function fencedBlock(content: string, lang = ''): string {
  const fence = codeFence(content);
  return `${fence}${lang}\n${content}\n${fence}`;
}

/** 0 → `0 s`, 75_000 → `1 min 15 s`, 3_725_000 → `1 h 2 min`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** `[mm:ss]` (or `[h:mm:ss]`) of a time since the start of the run. */
export function formatClock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(seconds / 3600);
  const mm = two(Math.floor(seconds / 60) % 60);
  return h > 0 ? `${h}:${mm}:${two(seconds % 60)}` : `${mm}:${two(seconds % 60)}`;
}

/** USD with 2 decimals, 4 under a cent. */
export function formatUsd(usd: number): string {
  return usd > 0 && usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** 1234567 → `1,234,567`. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Hard cap for a Markdown document: cut on a line break when possible and say so. */
export function capMarkdown(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const note = '\n\n_… cut to fit GitHub’s size limit_';
  let cut = text.slice(0, Math.max(0, limit - note.length));
  const newline = cut.lastIndexOf('\n');
  if (newline > cut.length / 2) cut = cut.slice(0, newline);
  return `${cut}${note}`.slice(0, limit);
}

/** A Markdown link to an http(s) URL; anything else comes out as escaped text. */
export function link(text: string, url: string): string {
  if (!/^https?:\/\/[^\s<>()[\]`]+$/.test(url)) return escapeText(url);
  return `[${escapeText(text)}](${url})`;
}

/** `inlineCode` for a table cell: GitHub splits cells on `|` even inside code, unless escaped. */
export function tableCode(text: string): string {
  return inlineCode(text).replace(/\|/g, '\\|');
}
