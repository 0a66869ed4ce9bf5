import { z } from 'zod';

const loose = z.object({}).loose();
const id = z.string().min(1);

/**
 * The records of `pi --mode json` (and omp's) whose shape decides the translation, checked at the
 * edge: the fields a record cannot do without are required (a `message_update` without its
 * `assistantMessageEvent`, a tool execution without its id and name); the rest is read loosely.
 */
export const piRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session'), id }).loose(),
  z.object({ type: z.literal('turn_start') }).loose(),
  z.object({ type: z.literal('message_start'), message: loose }).loose(),
  z
    .object({ type: z.literal('message_update'), assistantMessageEvent: z.object({ type: z.unknown() }).loose() })
    .loose(),
  z.object({ type: z.literal('message_end'), message: loose }).loose(),
  z.object({ type: z.literal('tool_execution_start'), toolCallId: id, toolName: id }).loose(),
  z.object({ type: z.literal('tool_execution_end'), toolCallId: id, toolName: id }).loose(),
  z.object({ type: z.literal('turn_end') }).loose(),
  z.object({ type: z.literal('agent_end') }).loose(),
  z.object({ type: z.literal('auto_retry_end') }).loose(),
]);

/** One pi record the translator knows. */
export type PiRecord = z.infer<typeof piRecordSchema>;

/** One record of a given `type`. */
export type PiRecordOf<T extends PiRecord['type']> = Extract<PiRecord, { type: T }>;

/** The record types {@link piRecordSchema} knows, with what a record of that type that fails it lacks. */
export const piMalformed: Readonly<Record<string, string>> = {
  session: 'session header without an id',
  turn_start: 'turn_start of another shape',
  message_start: 'message_start without message',
  message_update: 'message_update without assistantMessageEvent',
  message_end: 'message_end without message',
  tool_execution_start: 'tool_execution_start without toolCallId or toolName',
  tool_execution_end: 'tool_execution_end without toolCallId or toolName',
  turn_end: 'turn_end of another shape',
  agent_end: 'agent_end of another shape',
  auto_retry_end: 'auto_retry_end of another shape',
};
