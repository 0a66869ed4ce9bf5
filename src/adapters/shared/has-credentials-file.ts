import { existsSync, statSync } from 'node:fs';

/**
 * True when a CLI's login file (an OAuth credentials JSON) is there with something in it: more than
 * the two bytes of an empty `{}`. False when it is missing or cannot be read. Never throws.
 */
export function hasCredentialsFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).size > 2;
  } catch {
    return false;
  }
}
