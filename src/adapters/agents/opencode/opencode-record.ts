import { z } from 'zod';

/**
 * The `type`s of `opencode run --format json` lines (and `kilo run --format json`) the translator
 * maps, checked at the edge; a line of any other type is reported as unknown. Only the discriminant
 * is parsed: each line's few fields (`sessionID`, `part`) are read by the record-fields readers, as
 * a parse of the whole line made the translation about a tenth slower (bench adapter-translation).
 * See {@link openCodeRecordType} for the reading.
 */
export const openCodeRecordTypeSchema = z.enum(['step_start', 'text', 'reasoning', 'tool_use', 'step_finish', 'error']);

/** A type of line the translator maps. */
export type OpenCodeRecordType = z.infer<typeof openCodeRecordTypeSchema>;

/**
 * The line's type when the translator maps it, else undefined: checked in one switch as the schema
 * states it. `safeParse` is not used on this path (its result object, and the `ZodError` a failed
 * parse builds, about 1.4 µs, cost a tenth of the translation), nor a set (slow for a string fresh
 * from `JSON.parse`); the translator's test holds the switch and the schema together.
 */
export function openCodeRecordType(value: unknown): OpenCodeRecordType | undefined {
  switch (value) {
    case 'text':
    case 'tool_use':
    case 'reasoning':
    case 'step_start':
    case 'step_finish':
    case 'error':
      return value;
    default:
      return undefined;
  }
}
