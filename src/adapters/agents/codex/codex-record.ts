import { z } from 'zod';
import { filled, isObj, type Obj } from '../../shared/record-fields.ts';

const id = z.string().min(1);

/** An item of `item.started|updated|completed`: its `id` keys it (its `type` and the rest are read loosely, codex-items.ts). */
const item = z.object({ id }).loose();

/**
 * The `ThreadEvent`s of `codex exec --json` whose shape decides the translation, checked at the edge
 * (docs/adapters/codex.md): a `thread.started` cannot do without its `thread_id`, an item event
 * without its `item` and that item's `id`; the other events need nothing but their type (a
 * `turn.completed` without usage, an `error` without a message still translate), and every other
 * field is read loosely.
 */
export const codexRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thread.started'), thread_id: id }).loose(),
  z.object({ type: z.literal('turn.started') }).loose(),
  z.object({ type: z.enum(['item.started', 'item.updated', 'item.completed']), item }).loose(),
  z.object({ type: z.literal('turn.completed') }).loose(),
  z.object({ type: z.literal('turn.failed') }).loose(),
  z.object({ type: z.literal('error') }).loose(),
]);

/** One Codex event the translator knows. */
export type CodexRecord = z.infer<typeof codexRecordSchema>;

/** One event of the given `type`s (the item events' schema covers their three types at once: name all three). */
export type CodexRecordOf<T extends CodexRecord['type']> = Extract<CodexRecord, { type: T }>;

type ItemType = 'item.started' | 'item.updated' | 'item.completed';

/** The item an item event carries. */
export type CodexItem = z.infer<typeof item>;

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

/** An event type the translator knows (an own key of the table: `toString` is none). */
export function isCodexType(type: string): type is CodexRecord['type'] {
  return Object.hasOwn(codexMalformed, type);
}

/**
 * An event checked by hand as {@link codexRecordSchema} states it, without zod's parse (a copy of
 * each record) or a look-up of its type in a table (slow for a string fresh from `JSON.parse`): the
 * event, or undefined for a type the schema does not know or an event that lacks what it requires.
 * The translator then asks the table and the schema, so this check may skip work but never accept
 * what the schema refuses (the translator's test holds them together).
 */
export function codexRecordByHand(value: Obj): CodexRecord | undefined {
  switch (value.type) {
    case 'thread.started':
      return filled(value.thread_id) ? (value as CodexRecordOf<'thread.started'>) : undefined;
    case 'item.started':
    case 'item.updated':
    case 'item.completed':
      return isObj(value.item) && filled(value.item.id) ? (value as CodexRecordOf<ItemType>) : undefined;
    case 'turn.started':
    case 'turn.completed':
    case 'turn.failed':
    case 'error':
      return value as CodexRecord;
    default:
      return undefined;
  }
}
