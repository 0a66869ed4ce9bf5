import { z } from 'zod';
import { isObj, type Obj } from '../../shared/record-fields.ts';

/** An object field, checked without the copy `z.object({}).loose()` makes of it. */
const obj = z.custom<Obj>(isObj);

/**
 * The records of Claude Code's `stream-json` output whose shape decides the translation, checked at
 * the edge: a record of a known type without the object it cannot do without (a `stream_event`'s
 * event, an `assistant` or `user` record's message) is malformed. {@link claudeRecord} checks it by
 * hand and the handlers read the record itself, loosely: a parse that copied every field
 * (`.loose()`) made the translation about 15% slower (bench adapter-translation).
 */
export const claudeRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('system') }),
  z.object({ type: z.literal('stream_event'), event: z.object({ type: z.unknown() }).loose() }),
  z.object({ type: z.literal('assistant'), message: obj }),
  z.object({ type: z.literal('user'), message: obj }),
  z.object({ type: z.literal('result') }),
]);

/** One Claude Code record the translator knows: the schema's fields, and the rest read loosely. */
export type ClaudeRecord = z.infer<typeof claudeRecordSchema> & Obj;

/** One record of a given `type`. */
export type ClaudeRecordOf<T extends ClaudeRecord['type']> = Extract<z.infer<typeof claudeRecordSchema>, { type: T }> &
  Obj;

/** The record types {@link claudeRecordSchema} knows, with what a record of that type that fails it lacks. */
export const claudeMalformed: Readonly<Record<ClaudeRecord['type'], string>> = {
  system: 'system record of another shape',
  stream_event: 'stream_event without an event',
  assistant: 'assistant record without a message',
  user: 'user record without a message',
  result: 'result record of another shape',
};

/**
 * A record checked at the edge: by hand as {@link claudeRecordSchema} states it, in one switch on its
 * type (the hot path, `stream_event`, first), without zod's parse or a look-up of the type in a table
 * (slow for a string fresh from `JSON.parse`). The record itself, `'unknown'` for a type the schema
 * does not know, or `'malformed'` for a known type without what the schema requires (the
 * translator's test holds the hand check and the schema together).
 */
export function claudeRecord(value: Obj): ClaudeRecord | 'unknown' | 'malformed' {
  switch (value.type) {
    case 'stream_event':
      return isObj(value.event) && 'type' in value.event ? (value as ClaudeRecord) : 'malformed';
    case 'assistant':
    case 'user':
      return isObj(value.message) ? (value as ClaudeRecord) : 'malformed';
    case 'system':
    case 'result':
      return value as ClaudeRecord;
    default:
      return 'unknown';
  }
}
