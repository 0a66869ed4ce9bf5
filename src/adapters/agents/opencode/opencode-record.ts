import { z } from 'zod';

/**
 * The `type`s of `opencode run --format json` lines (and `kilo run --format json`) the translator
 * maps, checked at the edge; a line of any other type is reported as unknown. Only the discriminant
 * is parsed: each line's few fields (`sessionID`, `part`) are read by the record-fields readers, as
 * a parse of the whole line made the translation about a tenth slower (bench adapter-translation).
 * Built once; see {@link openCodeRecordType} for the reading.
 */
export const openCodeRecordTypeSchema = z.enum(['step_start', 'text', 'reasoning', 'tool_use', 'step_finish', 'error']);

/** A type of line the translator maps. */
export type OpenCodeRecordType = z.infer<typeof openCodeRecordTypeSchema>;

const TYPES: ReadonlySet<unknown> = new Set(openCodeRecordTypeSchema.options);

/**
 * The line's type when the translator maps it, else undefined: checked against the schema's own
 * options (a set built once). `safeParse` is not used on this path: its result object, and the
 * `ZodError` a failed parse builds (about 1.4 µs, more than a line's JSON.parse), cost a tenth of
 * the translation.
 */
export function openCodeRecordType(value: unknown): OpenCodeRecordType | undefined {
  return TYPES.has(value) ? (value as OpenCodeRecordType) : undefined;
}
