import { z } from 'zod';

const loose = z.object({}).loose();

/**
 * The records of Claude Code's `stream-json` output whose shape decides the translation, checked at
 * the edge: a record of a known type without the object it cannot do without (a `stream_event`'s
 * event, an `assistant` or `user` record's message) is malformed; the other fields are read loosely.
 */
export const claudeRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('system') }).loose(),
  z.object({ type: z.literal('stream_event'), event: z.object({ type: z.unknown() }).loose() }).loose(),
  z.object({ type: z.literal('assistant'), message: loose }).loose(),
  z.object({ type: z.literal('user'), message: loose }).loose(),
  z.object({ type: z.literal('result') }).loose(),
]);

/** One Claude Code record the translator knows. */
export type ClaudeRecord = z.infer<typeof claudeRecordSchema>;

/** One record of a given `type`. */
export type ClaudeRecordOf<T extends ClaudeRecord['type']> = Extract<ClaudeRecord, { type: T }>;

/** The record types {@link claudeRecordSchema} knows, with what a record of that type that fails it lacks. */
export const claudeMalformed: Readonly<Record<string, string>> = {
  system: 'system record of another shape',
  stream_event: 'stream_event without an event',
  assistant: 'assistant record without a message',
  user: 'user record without a message',
  result: 'result record of another shape',
};
