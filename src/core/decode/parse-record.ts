import type { NativeRecord } from '../adapter/adapter.ts';

/** A line that looked like JSON (`{` or `[` first) but did not parse. The run survives it. */
export interface MalformedRecord {
  kind: 'malformed';
  line: string;
  /** The JSON parser's message. */
  error: string;
}

export type ParsedRecord = NativeRecord | MalformedRecord;

/**
 * Reads one output line as the adapter's protocol says. Never throws.
 *
 * - `json-lines`: a line whose first non-whitespace character is `{` or `[` is parsed as JSON (a leading
 *   byte-order mark counts as whitespace); any other line is `text` (banners, warnings a CLI prints).
 * - `text`: every line is `text`.
 */
export function parseRecord(line: string, protocol: 'json-lines' | 'text'): ParsedRecord {
  if (protocol === 'text') return { kind: 'text', line };
  const trimmed = line.trim();
  const first = trimmed.charCodeAt(0);
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return { kind: 'text', line };
  try {
    return { kind: 'json', value: JSON.parse(trimmed) as unknown };
  } catch (error) {
    return { kind: 'malformed', line, error: error instanceof Error ? error.message : String(error) };
  }
}
