import { z } from 'zod';
import { parseRecord } from '../../../core/decode/parse-record.ts';

/**
 * The external profile's adapter protocol: JSON lines over the adapter process's stdio, several sessions
 * multiplexed by `session_id`. Field names are the protocol's own (snake_case).
 */

const sessionId = z.string().min(1);

/** Adapter → runtime: agent output; `channel` defaults to `stdout`. */
export const externalOutputSchema = z.object({
  type: z.literal('output'),
  session_id: sessionId,
  content: z.string(),
  channel: z.string().default('stdout'),
});
/** Adapter → runtime: the agent has finished its turn. */
export const externalTurnCompleteSchema = z.object({ type: z.literal('turn.complete'), session_id: sessionId });
/** Adapter → runtime: a file for the user (a path on disk). */
export const externalFileOutputSchema = z.object({
  type: z.literal('file.output'),
  session_id: sessionId,
  file_name: z.string(),
  file_mime_type: z.string().optional(),
  file_path: z.string(),
});
/** Adapter → runtime: may the agent use this tool on this resource? Answered with `permission.response`. */
export const externalPermissionRequestSchema = z.object({
  type: z.literal('permission.request'),
  session_id: sessionId,
  request_id: z.union([z.string().min(1), z.number()]),
  tool: z.string().default(''),
  description: z.string().default(''),
  resource: z.string().default(''),
});

export const externalMessageSchema = z.discriminatedUnion('type', [
  externalOutputSchema,
  externalTurnCompleteSchema,
  externalFileOutputSchema,
  externalPermissionRequestSchema,
]);
/** One message of the adapter process to the runtime. */
export type ExternalMessage = z.infer<typeof externalMessageSchema>;
export type ExternalMessageOf<T extends ExternalMessage['type']> = Extract<ExternalMessage, { type: T }>;

const messageTypes: ReadonlySet<string> = new Set(externalMessageSchema.options.map((o) => o.shape.type.value));

/** One message of the runtime to the adapter process. */
export type ExternalCommand =
  | { type: 'session.start'; session_id: string }
  | { type: 'user.input'; session_id: string; content: string }
  | { type: 'file.input'; session_id: string; file_name: string; file_mime_type: string; file_path: string }
  | { type: 'permission.response'; session_id: string; request_id: string | number; approved: boolean }
  | { type: 'stop'; session_id: string }
  | { type: 'session.close'; session_id: string };

/** What one stdout line of the adapter process is. */
export type ExternalLine =
  | { kind: 'message'; message: ExternalMessage; value: unknown }
  /** Not a protocol message; `sessionId` when the line still named a session. */
  | { kind: 'malformed'; reason: string; sessionId?: string }
  /** A well-formed message of a type this runtime does not know. */
  | { kind: 'unknown'; sessionId: string; type: string; value: unknown }
  /** A line that is not JSON at all (a stray print). */
  | { kind: 'text'; line: string };

/** Reads one stdout line of the adapter process. Pure; never throws. */
export function readExternalLine(line: string): ExternalLine {
  const record = parseRecord(line, 'json-lines');
  if (record.kind === 'malformed') return { kind: 'malformed', reason: `unparseable line (${record.error})` };
  if (record.kind === 'text') return { kind: 'text', line };
  const value = record.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'malformed', reason: 'a JSON line that is not an object' };
  }
  const fields = value as Record<string, unknown>;
  const session = typeof fields.session_id === 'string' && fields.session_id !== '' ? fields.session_id : undefined;
  if (typeof fields.type !== 'string')
    return { kind: 'malformed', reason: 'a message without a type', sessionId: session };
  if (session === undefined) return { kind: 'malformed', reason: `a ${fields.type} message without a session_id` };
  if (!messageTypes.has(fields.type)) return { kind: 'unknown', sessionId: session, type: fields.type, value };
  const parsed = externalMessageSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
    return { kind: 'malformed', reason: `an invalid ${fields.type} message (${issues})`, sessionId: session };
  }
  return { kind: 'message', message: parsed.data, value };
}
