import { z } from 'zod';
import { isObj, type Obj } from '../../shared/record-fields.ts';

/** A JSON object, else absent: parts are read field by field, leniently (a cheap check on the hot path). */
const object = z.custom<Obj>(isObj).optional().catch(undefined);
const sessionID = z.string().optional().catch(undefined);
const withPart = <T extends string>(type: T) => z.object({ type: z.literal(type), sessionID, part: object });

/**
 * One line of `opencode run --format json` (and `kilo run --format json`), checked at the edge: the
 * `type` decides the record; `sessionID` and `part` of the wrong type are read as absent. Built once;
 * one `safeParse` a line (the nested part is only checked to be an object).
 */
export const openCodeRecordSchema = z.discriminatedUnion('type', [
  withPart('step_start'),
  withPart('text'),
  withPart('reasoning'),
  withPart('tool_use'),
  withPart('step_finish'),
  z.object({ type: z.literal('error'), sessionID, error: z.unknown().optional() }),
]);

/** An OpenCode record as {@link openCodeRecordSchema} reads it. */
export type OpenCodeRecord = z.infer<typeof openCodeRecordSchema>;

const TYPES: ReadonlySet<unknown> = new Set(openCodeRecordSchema.options.map((option) => option.shape.type.value));

/**
 * One OpenCode line as {@link openCodeRecordSchema} reads it, or undefined for a record of another `type`. Such
 * records are told apart by the schema's own options first: a failed `safeParse` builds a
 * `ZodError` (about 1.4 µs, more than a line's JSON.parse), which unmapped records must not pay.
 */
export function readOpenCodeRecord(value: Obj): OpenCodeRecord | undefined {
  if (!TYPES.has(value.type)) return undefined;
  const parsed = openCodeRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
