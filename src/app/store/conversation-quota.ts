import type { ConversationKey } from '../../github/conversation/conversation-state.ts';
import { ConversationStoreError } from '../../github/conversation/conversation-store-error.ts';
import type { Row } from './row-mapping.ts';

/** A conversation larger than the whole quota is not saved (and pushes nothing out). */
export function refuseOverQuota(key: ConversationKey, bytes: number, quotaBytes: number | undefined): void {
  if (quotaBytes === undefined || bytes <= quotaBytes) return;
  throw tooLarge(key, quotaBytes);
}

function tooLarge(key: ConversationKey, quotaBytes: number): ConversationStoreError {
  return new ConversationStoreError(
    'conversation_save_failed',
    `the conversation ${key.repository}#${key.number} (${key.agent}) is larger than its installation's store quota (${quotaBytes} bytes): not kept`,
  );
}

/**
 * After a save under an installation's quota: when the conversation just saved was among those
 * deleted to keep the quota (it alone is over it), it is not kept, and the save says so.
 */
export function throwIfEvicted(key: ConversationKey, evicted: readonly Row[], quotaBytes: number | undefined): void {
  const self = evicted.some(
    (row) => row.repository === key.repository && Number(row.number) === key.number && row.agent === key.agent,
  );
  if (!self) return;
  throw tooLarge(key, quotaBytes ?? 0);
}
