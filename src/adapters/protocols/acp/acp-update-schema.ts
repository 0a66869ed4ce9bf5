import { z } from 'zod';

/**
 * The kinds of ACP `session/update` the translator maps (the update's `sessionUpdate` discriminant),
 * checked at the edge; any other kind is reported as unknown. Only the discriminant is parsed: the
 * chunks are most of the stream, and their few fields are read by the record-fields readers, which
 * keeps the translation as fast as it was (bench adapter-translation). (The SDK's own zod schemas
 * are not exported.) See {@link acpUpdateKind} for the reading.
 */
export const acpUpdateKindSchema = z.enum([
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'usage_update',
  'session_info_update',
]);

/** A kind of update the translator maps. */
export type AcpUpdateKind = z.infer<typeof acpUpdateKindSchema>;

/**
 * The update's kind when the translator maps it, else undefined: checked by hand in one switch, as
 * the schema states it (a look-up of a string fresh from `JSON.parse` in a set, and zod's parse,
 * cost more than the switch; the translator's test holds the two together). A kind it does not map
 * (ACP has more: `available_commands_update`, `user_message_chunk`, …) is undefined.
 */
export function acpUpdateKind(value: unknown): AcpUpdateKind | undefined {
  switch (value) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'tool_call':
    case 'tool_call_update':
    case 'plan':
    case 'usage_update':
    case 'session_info_update':
      return value;
    default:
      return undefined;
  }
}
