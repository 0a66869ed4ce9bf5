import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { ConversationStateSchema } from './conversation-state.ts';
import type { StoredConversation } from './conversation-store.ts';
import { ConversationStoreError } from './conversation-store-error.ts';

/** The session files as one blob holds them: gzip of this JSON, each file's content in base64. */
const PackedSessionSchema = z.object({
  version: z.literal(1),
  files: z.array(z.object({ path: z.string().min(1), content: z.base64() })),
});

/** A conversation as a database row keeps it: the state as JSON text, the session's files as one gzip blob. */
export interface PackedConversation {
  state: string;
  session: Uint8Array;
}

/** A conversation in the form a database row keeps (`conversations.state`, `conversations.session`). */
export function packConversation(conversation: StoredConversation): PackedConversation {
  const packed: z.infer<typeof PackedSessionSchema> = {
    version: 1,
    files: conversation.session.files.map((file) => ({ path: file.path, content: file.content.toString('base64') })),
  };
  return {
    state: JSON.stringify(ConversationStateSchema.parse(conversation.state)),
    session: gzipSync(JSON.stringify(packed)),
  };
}

/**
 * A row read back, checked: a state that is not one, or a blob that does not unpack, is a
 * `conversation_load_failed` error naming what (the run then starts a new session).
 */
export function unpackConversation(row: PackedConversation, name: string): StoredConversation {
  let state: StoredConversation['state'];
  try {
    state = ConversationStateSchema.parse(JSON.parse(row.state));
  } catch (error) {
    throw new ConversationStoreError('conversation_load_failed', `conversation ${name}: its stored state is invalid`, {
      cause: error,
    });
  }
  let packed: z.infer<typeof PackedSessionSchema>;
  try {
    packed = PackedSessionSchema.parse(JSON.parse(gunzipSync(row.session).toString('utf8')));
  } catch (error) {
    throw new ConversationStoreError(
      'conversation_load_failed',
      `conversation ${name}: its stored session files do not unpack`,
      { cause: error },
    );
  }
  const files = packed.files.map((file) => ({ path: file.path, content: Buffer.from(file.content, 'base64') }));
  return { state, session: { files, bytes: files.reduce((sum, file) => sum + file.content.length, 0) } };
}
