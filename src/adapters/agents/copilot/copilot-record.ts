import { z } from 'zod';
import { filled, isObj, type Obj } from '../../shared/record-fields.ts';

const id = z.string().min(1);
/** A call's `data`: its `toolCallId` ties the delta, the start and the result of one call together. */
const call = z.object({ toolCallId: id }).loose();
export type CopilotCallData = z.infer<typeof call>;

/**
 * The session events of `copilot --output-format json` whose shape decides the translation, checked
 * at the edge (src/adapters/agents/copilot/README.md; the fields as the CLI's `session-events.schema.json` has
 * them): a tool call's delta, start and result cannot do without `data.toolCallId`, `session.start`
 * without `data.sessionId`, `skill.invoked` without `data.name`; the other events need nothing but
 * their type (a message without content, a `result` without an exit code still translate), and
 * every other field, `data` included, is read loosely.
 */
export const copilotRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session.start'), data: z.object({ sessionId: id }).loose() }).loose(),
  z.object({ type: z.literal('skill.invoked'), data: z.object({ name: z.string() }).loose() }).loose(),
  z
    .object({
      type: z.enum(['assistant.tool_call_delta', 'tool.execution_start', 'tool.execution_complete']),
      data: call,
    })
    .loose(),
  z
    .object({
      type: z.enum([
        'session.resume',
        'session.skills_loaded',
        'assistant.turn_start',
        'assistant.turn_end',
        'assistant.message_start',
        'assistant.message_delta',
        'assistant.reasoning_delta',
        'assistant.reasoning',
        'assistant.message',
        'assistant.usage',
        'session.error',
        'abort',
        'result',
      ]),
    })
    .loose(),
]);

/** One Copilot event the translator knows. */
export type CopilotRecord = z.infer<typeof copilotRecordSchema>;

/** The event types {@link copilotRecordSchema} knows, with what an event of that type that fails it lacks. */
export const copilotMalformed: Readonly<Record<CopilotRecord['type'], string>> = {
  'session.start': 'session.start without data.sessionId',
  'session.resume': 'session.resume of another shape',
  'session.skills_loaded': 'session.skills_loaded of another shape',
  'skill.invoked': 'skill.invoked without data.name',
  'assistant.turn_start': 'assistant.turn_start of another shape',
  'assistant.turn_end': 'assistant.turn_end of another shape',
  'assistant.message_start': 'assistant.message_start of another shape',
  'assistant.message_delta': 'assistant.message_delta of another shape',
  'assistant.reasoning_delta': 'assistant.reasoning_delta of another shape',
  'assistant.reasoning': 'assistant.reasoning of another shape',
  'assistant.tool_call_delta': 'assistant.tool_call_delta without data.toolCallId',
  'assistant.message': 'assistant.message of another shape',
  'assistant.usage': 'assistant.usage of another shape',
  'tool.execution_start': 'tool.execution_start without data.toolCallId',
  'tool.execution_complete': 'tool.execution_complete without data.toolCallId',
  'session.error': 'session.error of another shape',
  abort: 'abort of another shape',
  result: 'result record of another shape',
};

/** An event's `data`, or an empty one when it has none (the events that need nothing in it). */
export function dataOf(value: Obj): Obj {
  return isObj(value.data) ? value.data : {};
}

/** What the hand check refuses, the schema decides on: the event as zod copies it, or `'malformed'`. */
const bySchema = (value: Obj): CopilotRecord | 'malformed' => copilotRecordSchema.safeParse(value).data ?? 'malformed';

/**
 * An event checked at the edge: by hand as {@link copilotRecordSchema} states it, in one switch on
 * its type, without zod's parse (a copy of each record) or a look-up of the type in a table (slow
 * for a string fresh from `JSON.parse`); what the hand check refuses, the schema decides on. The
 * event, `'unknown'` for a type the schema does not know, or `'malformed'` for a known type without
 * what the schema requires (the translator's test holds the hand check and the schema together).
 */
export function copilotRecord(value: Obj): CopilotRecord | 'unknown' | 'malformed' {
  const data = value.data;
  switch (value.type) {
    case 'assistant.message_delta': // the most frequent: first
      return value as CopilotRecord;
    case 'assistant.tool_call_delta':
    case 'tool.execution_start':
    case 'tool.execution_complete':
      return isObj(data) && filled(data.toolCallId) ? (value as CopilotRecord) : bySchema(value);
    case 'session.start':
      return isObj(data) && filled(data.sessionId) ? (value as CopilotRecord) : bySchema(value);
    case 'skill.invoked':
      return isObj(data) && typeof data.name === 'string' ? (value as CopilotRecord) : bySchema(value);
    case 'session.resume':
    case 'session.skills_loaded':
    case 'assistant.turn_start':
    case 'assistant.turn_end':
    case 'assistant.message_start':
    case 'assistant.reasoning_delta':
    case 'assistant.reasoning':
    case 'assistant.message':
    case 'assistant.usage':
    case 'session.error':
    case 'abort':
    case 'result':
      return value as CopilotRecord;
    default:
      return 'unknown';
  }
}
