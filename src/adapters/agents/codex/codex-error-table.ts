import type { EventDraft } from '../../../core/events/index.ts';
import { type ProviderErrorTable, providerErrorDraft } from '../../shared/provider-error.ts';
import { TextMemo } from '../../shared/text-memo.ts';

/** What Codex prints for a failing login or model API, beyond the common wording (provider-error.ts). */
export const codexErrorTable: ProviderErrorTable = {
  auth: { patterns: [/\b401\b|authentication/i] },
  rateLimit: { patterns: [/\b429\b/] },
  context: { patterns: [/context_length_exceeded|ran out of room/i] },
  authGuidance: 'Set OPENAI_API_KEY (or CODEX_API_KEY), or run `codex login`.',
};

/** A Codex error message read: without its endpoint (`withoutUrl`), and its normalized draft. */
export interface CodexError {
  message: string;
  /** Shared by every reading of the same message: callers emit a copy. */
  draft: EventDraft;
}

/**
 * Messages already read, by the text Codex printed: a long run repeats the same few error messages,
 * and reading one (the endpoint cut off, the table's expressions) is a pure function of the text.
 */
const reads = new TextMemo<CodexError>();

/** A message Codex printed, without its endpoint and sorted into the normalized error kinds (codexErrorTable). */
export function readCodexError(printed: string): CodexError {
  let read = reads.get(printed);
  if (read === undefined) {
    const message = withoutUrl(printed);
    read = { message, draft: providerErrorDraft(message, codexErrorTable) };
    reads.set(printed, read);
  }
  return read;
}

/**
 * Codex ends HTTP failures with `, url: <endpoint>` (`unexpected status 401 Unauthorized: …, url:
 * https://api.openai.com/v1/responses`). The endpoint is dropped from the normalized message: it
 * says nothing the user acts on and varies with the host (the raw record keeps it in debug mode).
 */
export function withoutUrl(message: string): string {
  // What `message.replace(/,\s*url:\s*\S+?(?=\)?\s*$)/, '')` does, without a regular expression
  // scanned over every error message of a long run (issue 18).
  let from = message.indexOf('url:');
  if (from === -1) return message;
  // The URL runs from after `url:` to the last non-blank character; only blanks may follow it.
  let end = message.length;
  while (end > 0 && isBlank(message.charCodeAt(end - 1))) end--;
  for (; from !== -1; from = message.indexOf('url:', from + 1)) {
    let comma = from;
    while (comma > 0 && isBlank(message.charCodeAt(comma - 1))) comma--;
    if (comma === 0 || message.charCodeAt(comma - 1) !== 0x2c /* , */) continue;
    let url = from + 4;
    while (url < end && isBlank(message.charCodeAt(url))) url++;
    // The URL is one non-blank run up to `end`, one character at least, a closing `)` excepted.
    let blank = false;
    for (let i = url; i < end; i++) if (isBlank(message.charCodeAt(i))) blank = true;
    if (blank || url >= end) continue;
    const stop = message.charCodeAt(end - 1) === 0x29 /* ) */ && end - 1 > url ? end - 1 : end;
    return message.slice(0, comma - 1) + message.slice(stop);
  }
  return message;
}

/** What `\s` matches. */
function isBlank(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
