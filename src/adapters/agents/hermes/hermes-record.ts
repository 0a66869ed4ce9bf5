import { z } from 'zod';
import type { Obj } from '../../shared/record-fields.ts';

/** A string that is not empty, else undefined (a wrong type is read as absent). */
const filled = z.string().min(1).optional().catch(undefined);
/** A finite number of zero or more, else undefined. */
const nonNegative = z.number().nonnegative().optional().catch(undefined);
/** A string, else empty. */
const text = z.string().catch('');

/**
 * One stdout record of `hermes chat --format stream-json`, checked at the edge: the `type` decides
 * the record, its fields are read leniently (a field of the wrong type is read as absent, as hermes'
 * own emitter never writes one). Built once; one `safeParse` a line.
 */
export const hermesRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('system'), subtype: z.unknown().optional(), model: filled, session_id: filled }).loose(),
  z.object({ type: z.literal('text'), text }).loose(),
  z.object({ type: z.literal('tool_use'), name: filled, tool_call_id: filled, input: z.unknown().optional() }).loose(),
  z
    .object({
      type: z.literal('tool_result'),
      name: filled,
      tool_call_id: filled,
      output: z.unknown().optional(),
      duration_ms: nonNegative,
      is_error: z.unknown().optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('result'),
      session_id: filled,
      exit_code: z.number().catch(0),
      text,
      tokens: z.unknown().optional(),
      duration_ms: nonNegative,
      error: filled,
    })
    .loose(),
]);

/** A hermes stream-json record as {@link hermesRecordSchema} reads it. */
export type HermesRecord = z.infer<typeof hermesRecordSchema>;
export type HermesRecordOf<T extends HermesRecord['type']> = Extract<HermesRecord, { type: T }>;

const TYPES: ReadonlySet<unknown> = new Set(hermesRecordSchema.options.map((option) => option.shape.type.value));

/**
 * One hermes record as {@link hermesRecordSchema} reads it, or undefined for a record of another `type`. Such
 * records are told apart by the schema's own options first: a failed `safeParse` builds a
 * `ZodError` (about 1.4 µs, more than a line's JSON.parse), which unmapped records must not pay.
 */
export function readHermesRecord(value: Obj): HermesRecord | undefined {
  if (!TYPES.has(value.type)) return undefined;
  const parsed = hermesRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
