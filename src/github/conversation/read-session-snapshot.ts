import type { SessionFileSet } from '../../core/adapter/session-files.ts';
import {
  isInsidePath,
  isRealStore,
  openRegularInside,
  regularFileSize,
  UnsafeSessionPathError,
} from '../../core/files/confined-files.ts';
import type { Redactor } from '../../core/redact/redactor.ts';
import type { SessionSnapshot } from './session-snapshot.ts';

/** Session files above this many bytes in all are not kept. */
export const DEFAULT_SESSION_MAX_BYTES = 50 * 1024 * 1024;

/** Why a session's files are not kept. */
export type SnapshotRefusal =
  | { reason: 'no_files'; message: string }
  | { reason: 'too_large'; message: string; bytes: number }
  | { reason: 'secret'; message: string; files: string[] }
  /** A file is a link, not a regular file, or reached through a link: what the agent left is not followed. */
  | { reason: 'unsafe'; message: string; files: string[] };

export type SnapshotResult = { ok: true; snapshot: SessionSnapshot } | ({ ok: false } & SnapshotRefusal);

/** Does `text`, or its bytes read another way, hold something the redactor would redact? */
function holdsSecret(redactor: Redactor, bytes: Buffer): boolean {
  const holds = (text: string) => redactor.redactString(text) !== text;
  const utf8 = bytes.toString('utf8');
  if (holds(utf8)) return true;
  if (utf8.includes('\uFFFD') && holds(bytes.toString('latin1'))) return true;
  return bytes.includes(0) && (holds(bytes.toString('utf16le')) || holds(bytes.subarray(1).toString('utf16le')));
}

/**
 * Reads a session's files for keeping: refused when there are none, when one is not a regular file
 * inside the store reached through real directories (a symbolic link, a FIFO, a file under a
 * linked directory, a store that is itself reached through a link below `set.anchor`: the agent
 * left them, and nothing it left is followed), when together they are over `maxBytes` (checked
 * from their sizes before reading), or when the run's redactor finds a secret in one (the GitHub
 * token, an API key, in any encoding it knows; also token-shaped strings when it looks for them).
 * Paths must stay inside the set's root.
 */
export async function readSessionSnapshot(
  set: SessionFileSet,
  options: { redactor: Redactor; maxBytes?: number },
): Promise<SnapshotResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_SESSION_MAX_BYTES;
  if (set.files.length === 0) return { ok: false, reason: 'no_files', message: 'the session has no files on disk' };
  for (const path of set.files) if (!isInsidePath(path)) throw new Error(`session file outside its store: ${path}`);
  if (!(await isRealStore(set.root, set.anchor))) {
    return unsafe([...set.files], `the session store ${set.root} is a link or reached through one`);
  }
  let bytes = 0;
  const unsafeFiles: string[] = [];
  for (const path of set.files) {
    const size = await regularFileSize(set.root, path);
    if (size === undefined) unsafeFiles.push(path);
    else bytes += size;
  }
  if (unsafeFiles.length > 0) return unsafe(unsafeFiles);
  if (bytes > maxBytes) {
    return {
      ok: false,
      reason: 'too_large',
      bytes,
      message: `the session's files are ${bytes} bytes, over the limit of ${maxBytes}`,
    };
  }
  const files = [];
  const secrets: string[] = [];
  let read = 0;
  for (const path of set.files) {
    let content: Buffer;
    try {
      const handle = await openRegularInside(set.root, path);
      try {
        content = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (UnsafeSessionPathError.isInstance(error)) return unsafe([path], error.message);
      throw error;
    }
    read += content.length;
    if (read > maxBytes) {
      return {
        ok: false,
        reason: 'too_large',
        bytes: read,
        message: `the session's files grew over ${maxBytes} bytes`,
      };
    }
    if (holdsSecret(options.redactor, content)) secrets.push(path);
    files.push({ path, content });
  }
  if (secrets.length > 0) {
    return {
      ok: false,
      reason: 'secret',
      files: secrets,
      message: `a secret is in the session's files (${secrets.join(', ')})`,
    };
  }
  return { ok: true, snapshot: { files, bytes: read } };
}

function unsafe(files: string[], why?: string): SnapshotResult {
  return {
    ok: false,
    reason: 'unsafe',
    files,
    message: `not a regular file inside the session store, or reached through a link (${why ?? files.join(', ')}); nothing the agent left is followed`,
  };
}
