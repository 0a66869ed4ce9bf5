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
  const head = line.charCodeAt(0);
  if (head === 0x7b /* { */ || head === 0x5b /* [ */) {
    // The common case, one JSON value per line: parsed as it is, without scanning it for whitespace
    // first. JSON.parse allows the trailing whitespace `trim` would remove, except U+00A0, U+FEFF,
    // U+2028 and the like: a line that fails here takes the full path below, so its result and its
    // error message are those of the trimmed line, as before.
    try {
      return { kind: 'json', value: JSON.parse(line) as unknown };
    } catch (error) {
      // Nothing for `trim` to remove: the trimmed line is this line and fails the same way (a long
      // malformed line is not parsed twice).
      if (line.trimEnd().length === line.length) return malformed(line, error);
    }
  }
  const trimmed = line.trim();
  const first = trimmed.charCodeAt(0);
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return { kind: 'text', line };
  try {
    return { kind: 'json', value: JSON.parse(trimmed) as unknown };
  } catch (error) {
    return malformed(line, error);
  }
}

function malformed(line: string, error: unknown): MalformedRecord {
  return { kind: 'malformed', line, error: error instanceof Error ? error.message : String(error) };
}
