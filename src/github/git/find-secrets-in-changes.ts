import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Redactor } from '../../core/redact/redactor.ts';
import type { ChangedFile } from './collect-changes.ts';

/**
 * The changed files (as `collectChanges` lists them, relative to `root`) whose path or content
 * holds one of `secrets` (a path itself holding one comes back with it replaced by `***`), plain or in any encoding the redactor knows (base64, hex, URL, HTML
 * entities, JSON escapes, reversed, split by invisible characters; see `secretVariants`). Only
 * literal secrets count, not token-shaped strings (a test fixture's fake `ghp_…` is not a leak).
 * A symbolic link is judged by its target text, as git would commit it; deleted files have
 * nothing to publish. Content is read as UTF-8, and also as Latin-1 when it is not valid UTF-8 and
 * as UTF-16 (both byte orders) when it holds NUL bytes. A compressed or encrypted copy is not found.
 */
export async function findSecretsInChanges(
  root: string,
  files: readonly ChangedFile[],
  secrets: Iterable<string | undefined>,
): Promise<string[]> {
  const redactor = new Redactor(secrets, { patterns: false });
  if (redactor.secretCount === 0) return [];
  const holds = (text: string) => redactor.redactString(text) !== text;
  const found: string[] = [];
  for (const file of files) {
    if (file.status === 'deleted') continue;
    if (holds(file.path)) {
      found.push(redactor.redactString(file.path));
      continue;
    }
    const full = join(root, file.path);
    const stats = await lstat(full).catch(() => undefined);
    if (stats === undefined) continue;
    let texts: string[];
    if (stats.isSymbolicLink()) texts = [await readlink(full)];
    else if (stats.isFile()) {
      const bytes = await readFile(full);
      const utf8 = bytes.toString('utf8');
      texts = utf8.includes('\uFFFD') ? [utf8, bytes.toString('latin1')] : [utf8];
      // UTF-16 (either byte order): NUL bytes between the characters.
      if (bytes.includes(0)) texts.push(bytes.toString('utf16le'), bytes.subarray(1).toString('utf16le'));
    } else continue;
    if (texts.some(holds)) found.push(file.path);
  }
  return found;
}
