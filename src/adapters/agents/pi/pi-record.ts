import { z } from 'zod';
import { filled, isObj, type Obj } from '../../shared/record-fields.ts';

const loose = z.object({}).loose();
const id = z.string().min(1);

/**
 * The records of `pi --mode json` and `--mode rpc` (and omp's) whose shape decides the translation, checked at the
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
  // RPC mode: a command's answer (docs/rpc.md).
  z.object({ type: z.literal('response'), command: z.string(), success: z.boolean() }).loose(),
]);

/** One pi record the translator knows. */
export type PiRecord = z.infer<typeof piRecordSchema>;

/** One record of a given `type`. */
export type PiRecordOf<T extends PiRecord['type']> = Extract<PiRecord, { type: T }>;

/** The record types {@link piRecordSchema} knows, with what a record of that type that fails it lacks. */
export const piMalformed: Readonly<Record<PiRecord['type'], string>> = {
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
  response: 'response without command or success',
};

/**
 * A record checked at the edge: by hand as {@link piRecordSchema} states it, in one switch on its
 * type, without zod's parse (a copy of each record, which made translation about twice as slow) or
 * a look-up of the type in a table (slow for a string fresh from `JSON.parse`). The record itself,
 * `'unknown'` for a type the schema does not know, or `'malformed'` for a known type without what
 * the schema requires (the translator's test holds the hand check and the schema together).
 */
export function piRecord(value: Obj): PiRecord | 'unknown' | 'malformed' {
  switch (value.type) {
    case 'message_update':
      return isObj(value.assistantMessageEvent) && 'type' in value.assistantMessageEvent
        ? (value as PiRecord)
        : 'malformed';
    case 'message_start':
    case 'message_end':
      return isObj(value.message) ? (value as PiRecord) : 'malformed';
    case 'tool_execution_start':
    case 'tool_execution_end':
      return filled(value.toolCallId) && filled(value.toolName) ? (value as PiRecord) : 'malformed';
    case 'session':
      return filled(value.id) ? (value as PiRecord) : 'malformed';
    case 'response':
      return typeof value.command === 'string' && typeof value.success === 'boolean'
        ? (value as PiRecord)
        : 'malformed';
    case 'turn_start':
    case 'turn_end':
    case 'agent_end':
    case 'auto_retry_end':
      return value as PiRecord;
    default:
      return 'unknown';
  }
}
