import { z } from 'zod';
import { filled, isObj, type Obj } from '../../shared/record-fields.ts';

const id = z.string().min(1);

/** The item of an item event: its `id` keys it (its `type` and the rest are read loosely, codex-items.ts). */
const item = z.object({ id }).loose();
export type CodexItem = z.infer<typeof item>;

/**
 * The `ThreadEvent`s of `codex exec --json` whose shape decides the translation, checked at the edge
 * (src/adapters/agents/codex/README.md): a `thread.started` cannot do without its `thread_id`, an item event
 * without its `item` and that item's `id`; the other events need nothing but their type (a
 * `turn.completed` without usage, an `error` without a message still translate), and every other
 * field is read loosely.
 */
export const codexRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thread.started'), thread_id: id }).loose(),
  z.object({ type: z.enum(['item.started', 'item.updated', 'item.completed']), item }).loose(),
  z.object({ type: z.enum(['turn.started', 'turn.completed', 'turn.failed', 'error']) }).loose(),
]);

/** One Codex event the translator knows. */
export type CodexRecord = z.infer<typeof codexRecordSchema>;

/** The event types {@link codexRecordSchema} knows, with what an event of that type that fails it lacks. */
export const codexMalformed: Readonly<Record<CodexRecord['type'], string>> = {
  'thread.started': 'thread.started without a thread_id',
  'turn.started': 'turn.started of another shape',
  'item.started': 'item.started without an item or its id',
  'item.updated': 'item.updated without an item or its id',
  'item.completed': 'item.completed without an item or its id',
  'turn.completed': 'turn.completed of another shape',
  'turn.failed': 'turn.failed of another shape',
  error: 'error record of another shape',
};

/** What the hand check refuses, the schema decides on: the event as zod copies it, or `'malformed'`. */
const bySchema = (value: Obj): CodexRecord | 'malformed' => codexRecordSchema.safeParse(value).data ?? 'malformed';

/**
 * An event checked at the edge: by hand as {@link codexRecordSchema} states it, in one switch on
 * its type, without zod's parse (a copy of each record) or a look-up of the type in a table (slow
 * for a string fresh from `JSON.parse`); what the hand check refuses, the schema decides on. The
 * event, `'unknown'` for a type the schema does not know, or `'malformed'` for a known type without
 * what the schema requires (the translator's test holds the hand check and the schema together).
 */
export function codexRecord(value: Obj): CodexRecord | 'unknown' | 'malformed' {
  switch (value.type) {
    case 'item.completed':
    case 'item.started':
    case 'item.updated':
      return isObj(value.item) && filled(value.item.id) ? (value as CodexRecord) : bySchema(value);
    case 'thread.started':
      return filled(value.thread_id) ? (value as CodexRecord) : bySchema(value);
    case 'turn.started':
    case 'turn.completed':
    case 'turn.failed':
    case 'error':
      return value as CodexRecord;
    default:
      return 'unknown';
  }
}
