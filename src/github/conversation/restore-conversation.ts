import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SessionCommandError } from '../../adapters/shared/session-command-error.ts';
import type { SessionFileDeclaration, SessionLocation } from '../../core/adapter/session-files.ts';
import { type ConversationKey, type ConversationState, isConversationExpired } from './conversation-state.ts';
import type { ConversationStore, StoredConversation } from './conversation-store.ts';
import { isRestorablePath, isSessionId } from './restorable-path.ts';
import { conversationName } from './save-conversation.ts';
import type { SessionSnapshotFile } from './session-snapshot.ts';

export interface RestoreConversationOptions {
  store: ConversationStore;
  key: ConversationKey;
  /** The declaration of the adapter about to run; the session must be one of the same adapter. */
  adapter: string;
  declaration: SessionFileDeclaration;
  location: SessionLocation;
  /** Default: now. */
  now?: Date;
  /** Default `DEFAULT_CONVERSATION_MAX_AGE_MS` (14 days). */
  maxAgeMs?: number;
  log?: (line: string) => void;
}

/**
 * Puts a conversation's last session back where the agent looks for it (under the declaration's
 * root in this location, then through the agent's import when it has one) and returns its state,
 * to resume `state.sessionId`. Undefined, so the run starts fresh, when there is none, when it
 * expired, when another adapter made it, or when the agent's import fails.
 */
export async function restoreConversation(options: RestoreConversationOptions): Promise<ConversationState | undefined> {
  const name = conversationName(options.key);
  const stored = await options.store.load(options.key);
  if (!stored) return undefined;
  const { state, session } = stored;
  if (isConversationExpired(state, options.now ?? new Date(), options.maxAgeMs)) {
    options.log?.(`conversation ${name}: last run ${state.updatedAt} is too old; starting fresh`);
    return undefined;
  }
  if (state.adapter !== options.adapter) {
    options.log?.(`conversation ${name}: its session is ${state.adapter}'s, not ${options.adapter}'s; starting fresh`);
    return undefined;
  }
  const root = options.declaration.root(options.location);
  const files = placedFiles(stored, options);
  if (!files) {
    options.log?.(
      `conversation ${name}: its session belongs to ${state.cwd} and ${state.adapter} cannot continue it in ${options.location.cwd}; starting fresh`,
    );
    return undefined;
  }
  // The stored conversation is data from a cache others may write to: only files session
  // `state.sessionId` can have are written back, never a configuration, hook or instruction file.
  if (!isSessionId(state.sessionId)) {
    options.log?.(`conversation ${name}: its session id is not one an agent makes; starting fresh`);
    return undefined;
  }
  for (const file of files) {
    if (!isRestorablePath(file.path, state.sessionId, options.declaration)) {
      options.log?.(
        `conversation ${name}: ${JSON.stringify(file.path)} is not a file of session ${state.sessionId}; starting fresh`,
      );
      return undefined;
    }
  }
  for (const file of files) {
    const target = join(root, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.content, { mode: 0o600 });
  }
  if (options.declaration.importSession) {
    try {
      await options.declaration.importSession(
        options.location,
        files.map((file) => file.path),
      );
    } catch (error) {
      if (!SessionCommandError.isInstance(error)) throw error;
      options.log?.(`conversation ${name}: its session could not be imported; starting fresh: ${error.message}`);
      return undefined;
    }
  }
  options.log?.(
    `conversation ${name}: restored session ${state.sessionId} (turn ${state.turns}, ${session.files.length} files)`,
  );
  return state;
}

/**
 * The session's files where they go in this location: moved by the declaration when the session
 * was saved in another working directory; undefined when it cannot move.
 */
function placedFiles(
  { state, session }: StoredConversation,
  options: RestoreConversationOptions,
): readonly SessionSnapshotFile[] | undefined {
  const { relocate } = options.declaration;
  const from = state.cwd;
  if (from === undefined || from === options.location.cwd || !relocate) return session.files;
  const moved: SessionSnapshotFile[] = [];
  for (const file of session.files) {
    const path = relocate(file.path, from, options.location);
    if (path === undefined) return undefined;
    moved.push({ path, content: file.content });
  }
  return moved;
}
