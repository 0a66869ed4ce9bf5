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
 * checked at the edge (docs/adapters/cursor.md): a `tool_call` cannot do without its call id and its
 * `tool_call` object (which tool it is: `<kind>ToolCall` or `function`, read by cursor-tools.ts); the
 * other records need nothing but their type (a message without text, a result without usage still
 * translate), and every other field is read loosely.
 */
export const cursorRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('system') }).loose(),
  z.object({ type: z.literal('user') }).loose(),
  z.object({ type: z.literal('interaction_query') }).loose(),
  z.object({ type: z.literal('assistant') }).loose(),
  z.object({ type: z.literal('thinking') }).loose(),
  z
    .object({ type: z.literal('tool_call'), tool_call: z.object({}).loose() })
    .loose()
    .refine((value) => cursorCallId(value) !== undefined),
  z.object({ type: z.literal('result') }).loose(),
]);

/** One Cursor record the translator knows. */
export type CursorRecord = z.infer<typeof cursorRecordSchema>;

/** One record of a given `type`. */
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

/**
 * A record checked by hand as {@link cursorRecordSchema} states it, without zod's parse (a copy of
 * each record) or a look-up of its type in a table (slow for a string fresh from `JSON.parse`): the
 * record, or undefined for a type the schema does not know or a `tool_call` that lacks what it
 * requires. The translator then asks the table and the schema, so this check may skip work but
 * never accept what the schema refuses (the translator's test holds them together).
 */
export function cursorRecordByHand(value: Obj): CursorRecord | undefined {
  switch (value.type) {
    case 'tool_call':
      return isObj(value.tool_call) && cursorCallId(value) !== undefined
        ? (value as CursorRecordOf<'tool_call'>)
        : undefined;
    case 'system':
    case 'user':
    case 'interaction_query':
    case 'assistant':
    case 'thinking':
    case 'result':
      return value as CursorRecord;
    default:
      return undefined;
  }
}

/** A record type the translator knows (an own key of the table: `toString` is none). */
export function isCursorType(type: string): type is CursorRecord['type'] {
  return Object.hasOwn(cursorMalformed, type);
}
