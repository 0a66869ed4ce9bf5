import { z } from 'zod';

/**
 * The records of the Process protocol (json lines on stdio) (agent → adapter), checked at the edge: a
 * `tool_call` needs its id and tool name; the other fields are read loosely by the translator.
 */
export const processRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress') }).loose(),
  z.object({ type: z.literal('tool_call'), id: z.union([z.string(), z.number()]), tool: z.string() }).loose(),
  z.object({ type: z.literal('comment') }).loose(),
  z.object({ type: z.literal('complete') }).loose(),
  z.object({ type: z.literal('failed') }).loose(),
]);

/** One record of the process protocol the translator knows. */
export type ProcessRecord = z.infer<typeof processRecordSchema>;

/** Why a record of a known type failed {@link processRecordSchema}: the first field it lacks. */
export function processMalformed(type: unknown, field: PropertyKey | undefined): string | undefined {
  if (type !== 'tool_call') return undefined;
  return field === 'id' ? 'tool_call without an id' : 'tool_call without a tool name';
}
