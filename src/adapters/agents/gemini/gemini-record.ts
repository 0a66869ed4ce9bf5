import { z } from 'zod';

/** A string field, or undefined when it is missing or of another type (the CLI's optional fields). */
const optionalString = z.string().optional().catch(undefined);

/**
 * The records of Gemini CLI's `--output-format stream-json` whose shape decides the translation,
 * checked at the edge: the fields a record cannot do without are required (a `tool_use` without
 * its name or id is malformed); the others (`loose`: kept, typed unknown) are read by the translator.
 */
export const geminiRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('init'), session_id: optionalString, model: optionalString }).loose(),
  z.object({ type: z.literal('message') }).loose(),
  z
    .object({
      type: z.literal('tool_use'),
      tool_name: z.string().min(1),
      tool_id: z.string().min(1),
    })
    .loose(),
  z
    .object({
      type: z.literal('tool_result'),
      tool_id: z.string().min(1),
    })
    .loose(),
  z.object({ type: z.literal('error'), message: optionalString }).loose(),
  z.object({ type: z.literal('result') }).loose(),
]);

/** One Gemini CLI record the translator knows. */
export type GeminiRecord = z.infer<typeof geminiRecordSchema>;

/** The record types {@link geminiRecordSchema} knows, with what a record of that type that fails it lacks. */
export const geminiMalformed: Readonly<Record<string, string>> = {
  init: 'gemini: an init record of another shape',
  message: 'gemini: a message of another shape',
  tool_use: 'gemini: a tool_use without tool_name or tool_id',
  tool_result: 'gemini: a tool_result without tool_id',
  error: 'gemini: an error record of another shape',
  result: 'gemini: a result record of another shape',
};
