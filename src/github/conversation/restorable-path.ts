import { basename, normalize, sep } from 'node:path';
import type { SessionFileDeclaration } from '../../core/adapter/session-files.ts';
import { isInsidePath } from '../../core/files/confined-files.ts';

/**
 * A session id as the agents make them (UUIDs, `ses_…`): letters, digits, `_` and `-`, at least
 * 16 characters with a digit. A stored conversation's id is data from a cache anyone with the
 * cache scope can write: a short or word-like id would let paths like `settings.json` pass as
 * "the session's".
 */
const SESSION_ID = /^(?=.*\d)[A-Za-z0-9][A-Za-z0-9_-]{15,127}$/;

/** Names no session file has: the agents' configuration, hooks and instructions. */
const NEVER =
  /^(settings(\.local)?\.json|config\.(toml|json|ya?ml)|auth\.json|\.credentials\.json|.*\.md|hooks?|mcp\.json|\.env.*|.*\.(sh|js|mjs|cjs|ts|py|so|dylib))$/i;

/** Whether `sessionId` has the shape of an agent's session id. */
export function isSessionId(sessionId: string): boolean {
  return SESSION_ID.test(sessionId);
}

/**
 * Whether a restore may write `path` (relative to the agent's store) for session `sessionId`: it
 * stays inside the store, it is not a configuration, hook or instruction file, and it is one the
 * declaration says session `sessionId` has (`belongs`), by default a path with the id as a
 * component, a file named after it (`<id>.jsonl`) or ending in `-<id>.jsonl` / `_<id>.jsonl`.
 */
export function isRestorablePath(path: string, sessionId: string, declaration: SessionFileDeclaration): boolean {
  if (!isInsidePath(path) || !isSessionId(sessionId)) return false;
  const parts = normalize(path).split(sep);
  if (parts.some((part) => NEVER.test(part) && part !== sessionId)) return false;
  if (declaration.belongs) return declaration.belongs(path, sessionId);
  return sessionPath(path, sessionId);
}

/** The default rule: the id is a directory of the path, or the file's name is made of it. */
export function sessionPath(path: string, sessionId: string): boolean {
  const parts = normalize(path).split(sep);
  const name = basename(path);
  if (parts.slice(0, -1).includes(sessionId)) return true;
  return (
    [`${sessionId}.jsonl`, `${sessionId}.json`].includes(name) ||
    name.endsWith(`-${sessionId}.jsonl`) ||
    name.endsWith(`_${sessionId}.jsonl`)
  );
}
