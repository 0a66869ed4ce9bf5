import type { ConversationKey } from '../../src/github/conversation/conversation-state.ts';
import type { ConversationStore, StoredConversation } from '../../src/github/conversation/conversation-store.ts';

/** A ConversationStore in memory (one process), keeping copies: for tests of what runs do with it. */
export function createMemoryConversationStore(): ConversationStore & {
  saved: { key: ConversationKey; conversation: StoredConversation }[];
} {
  const entries = new Map<string, StoredConversation>();
  const name = (key: ConversationKey) => `${key.repository}#${key.number}/${key.agent}`;
  const saved: { key: ConversationKey; conversation: StoredConversation }[] = [];
  return {
    saved,
    async load(key) {
      return structuredClone(entries.get(name(key)));
    },
    async save(key, conversation) {
      entries.set(name(key), structuredClone(conversation));
      saved.push({ key, conversation: structuredClone(conversation) });
    },
  };
}
