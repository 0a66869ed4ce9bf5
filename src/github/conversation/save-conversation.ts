import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionCommandError } from '../../adapters/shared/session-command-error.ts';
import type { SessionFileDeclaration, SessionLocation } from '../../core/adapter/session-files.ts';
import type { Redactor } from '../../core/redact/redactor.ts';
import type { ConversationKey, ConversationState } from './conversation-state.ts';
import type { ConversationStore } from './conversation-store.ts';
import { readSessionSnapshot, type SnapshotRefusal } from './read-session-snapshot.ts';

export interface SaveConversationOptions {
  store: ConversationStore;
  key: ConversationKey;
  state: ConversationState;
  declaration: SessionFileDeclaration;
  location: SessionLocation;
  /** The run's redactor: a session whose files hold a secret it knows is not saved. */
  redactor: Redactor;
  /** Default `DEFAULT_SESSION_MAX_BYTES` (50 MiB). */
  maxBytes?: number;
  log?: (line: string) => void;
}

export type SaveConversationResult =
  | { saved: true; bytes: number; files: number }
  | ({ saved: false } & SnapshotRefusal)
  | { saved: false; reason: 'export_failed'; message: string };

/**
 * Keeps a conversation's turn: the agent's session files (found by the adapter's declaration, or
 * written by its export), checked for size and secrets, with its state. A refused snapshot or a
 * failed export is logged and not saved; a store failure throws `ConversationStoreError`.
 */
export async function saveConversation(options: SaveConversationOptions): Promise<SaveConversationResult> {
  const { location, declaration, state } = options;
  const root = declaration.root(location);
  if (declaration.exportSession) {
    try {
      await declaration.exportSession(location, state.sessionId);
    } catch (error) {
      if (!SessionCommandError.isInstance(error)) throw error;
      const message = `the session could not be exported: ${error.message}`;
      options.log?.(`conversation ${conversationName(options.key)}: not saved: ${message}`);
      return { saved: false, reason: 'export_failed', message };
    }
  }
  const files = await declaration.find(location, state.sessionId);
  const result = await readSessionSnapshot(
    { root, files, anchor: location.home },
    { redactor: options.redactor, maxBytes: options.maxBytes },
  ).finally(
    // An export's files are a copy made for this save.
    () =>
      declaration.exportSession ? Promise.all(files.map((file) => rm(join(root, file), { force: true }))) : undefined,
  );
  if (!result.ok) {
    const { ok: _ok, ...refusal } = result;
    options.log?.(`conversation ${conversationName(options.key)}: not saved: ${refusal.message}`);
    return { saved: false, ...refusal };
  }
  // The directory the session belongs to, so that a restore elsewhere can move it (`relocate`).
  await options.store.save(options.key, { state: { ...state, cwd: location.cwd }, session: result.snapshot });
  options.log?.(
    `conversation ${conversationName(options.key)}: saved session ${state.sessionId} (${result.snapshot.files.length} files, ${result.snapshot.bytes} bytes)`,
  );
  return { saved: true, bytes: result.snapshot.bytes, files: result.snapshot.files.length };
}

export function conversationName(key: ConversationKey): string {
  return `${key.repository}#${key.number} (${key.agent})`;
}
