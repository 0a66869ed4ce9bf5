import { z } from 'zod';
import { isObj, type Obj, str } from '../../shared/record-fields.ts';

/**
 * A `tool_call` record's call id: `call_id` (Cursor's output-format reference), else the
 * `toolCallId` inside `tool_call` that the translator has always also read; an empty `call_id` is none.
 */
export function cursorCallId(value: Obj): string | undefined {
  const id = str(value.call_id) ?? (isObj(value.tool_call) ? str(value.tool_call.toolCallId) : undefined);
  return id === '' ? undefined : id;
}

/**
 * The records of `cursor-agent -p --output-format stream-json` whose shape decides the translation,
 * checked at the edge (src/adapters/agents/cursor/README.md): a `tool_call` cannot do without its call id and its
 * `tool_call` object (which tool it is: `<kind>ToolCall` or `function`, read by cursor-tools.ts); the
 * other records need nothing but their type (a message without text, a result without usage still
 * translate), and every other field is read loosely.
 */
export const cursorRecordSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('tool_call'), tool_call: z.object({}).loose() })
    .loose()
    .refine((value) => cursorCallId(value) !== undefined),
  z.object({ type: z.enum(['system', 'user', 'interaction_query', 'assistant', 'thinking', 'result']) }).loose(),
]);

/** One Cursor record the translator knows. */
export type CursorRecord = z.infer<typeof cursorRecordSchema>;

/** One record of the given `type`s (an option of the schema that lists several types: all of them). */
export type CursorRecordOf<T extends CursorRecord['type']> = Extract<CursorRecord, { type: T }>;

/** The record types {@link cursorRecordSchema} knows, with what a record of that type that fails it lacks. */
export const cursorMalformed: Readonly<Record<CursorRecord['type'], string>> = {
  system: 'a system record of another shape',
  user: 'a user record of another shape',
  interaction_query: 'an interaction_query of another shape',
  assistant: 'an assistant record of another shape',
  thinking: 'a thinking record of another shape',
  tool_call: 'a tool_call without a call_id or its tool_call object',
  result: 'a result record of another shape',
};

/** What the hand check refuses, the schema decides on: the record as zod copies it, or `'malformed'`. */
const bySchema = (value: Obj): CursorRecord | 'malformed' => cursorRecordSchema.safeParse(value).data ?? 'malformed';

/**
 * A record checked at the edge: by hand as {@link cursorRecordSchema} states it, in one switch on
 * its type, without zod's parse (a copy of each record) or a look-up of the type in a table (slow
 * for a string fresh from `JSON.parse`); what the hand check refuses, the schema decides on. The
 * record, `'unknown'` for a type the schema does not know, or `'malformed'` for a known type without
 * what the schema requires (the translator's test holds the hand check and the schema together).
 */
export function cursorRecord(value: Obj): CursorRecord | 'unknown' | 'malformed' {
  switch (value.type) {
    case 'tool_call':
      return isObj(value.tool_call) && cursorCallId(value) !== undefined
        ? (value as CursorRecordOf<'tool_call'>)
        : bySchema(value);
    case 'system':
    case 'user':
    case 'interaction_query':
    case 'assistant':
    case 'thinking':
    case 'result':
      return value as CursorRecord;
    default:
      return 'unknown';
  }
}
