import { z } from 'zod';
import { filled, type Obj } from '../../shared/record-fields.ts';

/**
 * The records of Gemini CLI's `--output-format stream-json` whose shape decides the translation,
 * checked at the edge: the fields a record cannot do without are required (a `tool_use` without
 * its name or id is malformed); optional fields (`init`'s session id and model, `error`'s message)
 * are read where they are used, as strings or not at all. {@link geminiRecord} checks it by hand;
 * the handlers read the record itself.
 */
export const geminiRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init') }),
  z.object({ type: z.literal('message') }),
  z.object({ type: z.literal('tool_use'), tool_name: z.string().min(1), tool_id: z.string().min(1) }),
  z.object({ type: z.literal('tool_result'), tool_id: z.string().min(1) }),
  z.object({ type: z.literal('error') }),
  z.object({ type: z.literal('result') }),
]);

/** One Gemini CLI record the translator knows: the schema's fields, and the rest read loosely. */
export type GeminiRecord = z.infer<typeof geminiRecordSchema> & Obj;

/** The record types {@link geminiRecordSchema} knows, with what a record of that type that fails it lacks. */
export const geminiMalformed: Readonly<Record<GeminiRecord['type'], string>> = {
  init: 'gemini: an init record of another shape',
  message: 'gemini: a message of another shape',
  tool_use: 'gemini: a tool_use without tool_name or tool_id',
  tool_result: 'gemini: a tool_result without tool_id',
  error: 'gemini: an error record of another shape',
  result: 'gemini: a result record of another shape',
};

/**
 * A record checked at the edge: by hand as {@link geminiRecordSchema} states it, in one switch on
 * its type, without zod's parse (a copy of each record) or a look-up of the type in a table (slow
 * for a string fresh from `JSON.parse`). The record itself, `'unknown'` for a type the schema does not know, or
 * `'malformed'` for a known type without what the schema requires (the translator's test holds the
 * hand check and the schema together).
 */
export function geminiRecord(value: Obj): GeminiRecord | 'unknown' | 'malformed' {
  switch (value.type) {
    case 'init':
    case 'message':
    case 'error':
    case 'result':
      return value as GeminiRecord;
    case 'tool_use':
      return filled(value.tool_name) && filled(value.tool_id) ? (value as GeminiRecord) : 'malformed';
    case 'tool_result':
      return filled(value.tool_id) ? (value as GeminiRecord) : 'malformed';
    default:
      return 'unknown';
  }
}
