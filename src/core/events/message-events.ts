import { z } from 'zod';
import { defineEvent } from './event-base.ts';

export const messageStartEvent = defineEvent('message_start', {
  messageId: z.string().optional(),
  model: z.string().optional(),
});
export const textDeltaEvent = defineEvent('text_delta', {
  delta: z.string(),
  messageId: z.string().optional(),
});
export const messageStopEvent = defineEvent('message_stop', {
  messageId: z.string().optional(),
  /** The whole text of the message, when known. */
  text: z.string().optional(),
});
export const thinkingStartEvent = defineEvent('thinking_start', {
  messageId: z.string().optional(),
});
export const thinkingDeltaEvent = defineEvent('thinking_delta', {
  delta: z.string(),
  messageId: z.string().optional(),
});
export const thinkingStopEvent = defineEvent('thinking_stop', {
  messageId: z.string().optional(),
  thinking: z.string().optional(),
});
export const imageOutputEvent = defineEvent('image_output', {
  mimeType: z.string(),
  /** Base64 data, or absent when the image was written to `path`. */
  data: z.string().optional(),
  path: z.string().optional(),
});
export const fileOutputEvent = defineEvent('file_output', {
  fileName: z.string(),
  path: z.string(),
  mimeType: z.string().optional(),
});
export const progressEvent = defineEvent('progress', {
  summary: z.string(),
  beliefs: z.array(z.unknown()).optional(),
  attempted: z.array(z.unknown()).optional(),
});
export const commentEvent = defineEvent('comment', {
  text: z.string(),
  mentions: z.array(z.string()).default([]),
});
