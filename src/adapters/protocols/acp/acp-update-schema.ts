import { z } from 'zod';

/**
 * The kinds of ACP `session/update` the translator maps (the update's `sessionUpdate` discriminant),
 * checked at the edge; any other kind is reported as unknown. Only the discriminant is parsed: the
 * chunks are most of the stream, and their few fields are read by the record-fields readers, which
 * keeps the translation as fast as it was (bench adapter-translation). (The SDK's own zod schemas
 * are not exported.) Built once; see {@link acpUpdateKind} for the reading.
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

const KINDS: ReadonlySet<unknown> = new Set(acpUpdateKindSchema.options);

/**
 * The update's kind when the translator maps it, else undefined. A kind it does not map (ACP has
 * more: `available_commands_update`, `user_message_chunk`, …) is told apart by the schema's own
 * options first: a failed `safeParse` builds a `ZodError` (about 1.4 µs, more than the whole line's
 * JSON.parse), which the many unmapped updates must not pay.
 */
export function acpUpdateKind(value: unknown): AcpUpdateKind | undefined {
  if (!KINDS.has(value)) return undefined;
  const parsed = acpUpdateKindSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
