import type { Redactor } from '../../core/redact/redactor.ts';
import type { ConversationKey, ConversationState } from './conversation-state.ts';
import type { ConversationStore } from './conversation-store.ts';
import { readSessionSnapshot, type SnapshotRefusal } from './read-session-snapshot.ts';
import type { SessionFileDeclaration, SessionLocation } from './session-files.ts';

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
  | ({ saved: false } & SnapshotRefusal);

/**
 * Keeps a conversation's turn: the agent's session files (found by the adapter's declaration),
 * checked for size and secrets, with its state. A refused snapshot is logged and not saved; a
 * store failure throws `ConversationStoreError`.
 */
export async function saveConversation(options: SaveConversationOptions): Promise<SaveConversationResult> {
  const { location, declaration, state } = options;
  const root = declaration.root(location);
  const files = await declaration.find(location, state.sessionId);
  const result = await readSessionSnapshot({ root, files }, { redactor: options.redactor, maxBytes: options.maxBytes });
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
