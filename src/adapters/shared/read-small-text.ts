import { existsSync, readFileSync, statSync } from 'node:fs';

/** How much an auth check reads of a file at most: past this it is not a credentials file worth a look. */
export const SMALL_TEXT_MAX_BYTES = 256 * 1024;

/**
 * A small local file's text, for a read-only auth check (a `.env`, a config with inline keys):
 * undefined when the file is missing, unreadable, or larger than `maxBytes`. Never throws.
 */
export function readSmallText(path: string, maxBytes: number = SMALL_TEXT_MAX_BYTES): string | undefined {
  try {
    if (!existsSync(path) || statSync(path).size > maxBytes) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
