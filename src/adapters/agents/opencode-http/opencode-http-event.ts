import { z } from 'zod';
import { isObj, type Obj } from '../../shared/record-fields.ts';

/** A JSON object, else `{}`: properties are read field by field, leniently. */
const properties = z.custom<Obj>(isObj).catch({});
const event = <T extends string>(type: T) => z.object({ type: z.literal(type), properties });

/**
 * One event of `opencode serve`'s `GET /event` stream that the translator maps, checked at the edge:
 * the `type` decides the event; `properties` of the wrong type is read as empty. Built once.
 */
export const openCodeHttpEventSchema = z.discriminatedUnion('type', [
  event('message.updated'),
  event('message.part.updated'),
  event('message.part.delta'),
  event('session.error'),
  event('session.idle'),
]);

/** An event as {@link openCodeHttpEventSchema} reads it. */
export type OpenCodeHttpEvent = z.infer<typeof openCodeHttpEventSchema>;

const TYPES: ReadonlySet<unknown> = new Set(openCodeHttpEventSchema.options.map((option) => option.shape.type.value));

/**
 * One event the translator maps as {@link openCodeHttpEventSchema} reads it, or undefined for a record of another `type`. Such
 * records are told apart by the schema's own options first: a failed `safeParse` builds a
 * `ZodError` (about 1.4 µs, more than a line's JSON.parse), which unmapped records must not pay.
 */
export function readOpenCodeHttpEvent(value: Obj): OpenCodeHttpEvent | undefined {
  if (!TYPES.has(value.type)) return undefined;
  const parsed = openCodeHttpEventSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
