import type { ConversationKey, ConversationState } from './conversation-state.ts';
import type { SessionSnapshot } from './session-snapshot.ts';

/** A conversation as a store keeps it: its state and its agent session's files. */
export interface StoredConversation {
  state: ConversationState;
  session: SessionSnapshot;
}

/**
 * Where conversations live between runs: the Action keeps them in the Actions cache, the app in
 * its own store. `save` gets a snapshot already checked for size and secrets
 * (`saveConversation`); a store keeps it as given and never in the repository.
 */
export interface ConversationStore {
  /** The conversation's last saved turn, or undefined when there is none. */
  load(key: ConversationKey): Promise<StoredConversation | undefined>;
  /** Keeps the conversation's latest turn. Throws `ConversationStoreError` when it could not. */
  save(key: ConversationKey, conversation: StoredConversation): Promise<void>;
}
