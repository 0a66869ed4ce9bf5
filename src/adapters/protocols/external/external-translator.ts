import type { EventDraft } from '../../../core/events/index.ts';
import {
  closeTextMessage,
  initTextOutputState,
  type TextOutputState,
  textDeltaDrafts,
} from '../generic-cli/text-output-translator.ts';
import type { ExternalMessage, ExternalMessageOf } from './external-protocol.ts';

export interface ExternalSessionState extends TextOutputState {
  sessionId: string;
  /** `turn.complete` has been seen. */
  turnComplete: boolean;
}

export function initExternalSessionState(debug: boolean, sessionId: string): ExternalSessionState {
  return { ...initTextOutputState(debug), sessionId, turnComplete: false };
}

/** The approval id of a permission request: request ids are only unique within their session. */
export function externalApprovalId(sessionId: string, requestId: string | number): string {
  return `${sessionId}/${String(requestId)}`;
}

/** What a permission request asks, as the approval's `input`. */
export function externalPermissionInput(message: ExternalMessageOf<'permission.request'>): Record<string, string> {
  return { tool: message.tool, description: message.description, resource: message.resource };
}

/**
 * Translates one message of a session into normalized drafts. Pure; never throws.
 *
 * - `output`: `text_delta` of the turn's message (opened at the first), or a `log` for `channel: "stderr"`;
 * - `turn.complete`: `message_stop` (with the whole text) and `turn_end`;
 * - `file.output`: `file_output`;
 * - `permission.request`: `approval_request` (the session asks the run's approval channel and answers).
 */
export function translateExternalMessage(message: ExternalMessage, state: ExternalSessionState): EventDraft[] {
  switch (message.type) {
    case 'output':
      if (message.channel === 'stderr') {
        return [{ type: 'log', source: 'stderr', line: message.content.replace(/\r?\n$/, '') }];
      }
      return message.content === '' ? [] : textDeltaDrafts(message.content, state);
    case 'turn.complete': {
      if (state.turnComplete) return [];
      state.turnComplete = true;
      state.outcome = { status: 'completed' };
      const stop = closeTextMessage(state);
      const text = stop[0]?.type === 'message_stop' ? stop[0].text : undefined;
      return [...stop, { type: 'turn_end', turn: 0, stopReason: 'turn.complete', result: text }];
    }
    case 'file.output':
      return [
        {
          type: 'file_output',
          fileName: message.file_name,
          path: message.file_path,
          ...(message.file_mime_type ? { mimeType: message.file_mime_type } : {}),
        },
      ];
    case 'permission.request':
      return [
        {
          type: 'approval_request',
          approvalId: externalApprovalId(state.sessionId, message.request_id),
          toolName: message.tool || 'unknown',
          input: externalPermissionInput(message),
          ...(message.description ? { reason: message.description } : {}),
        },
      ];
  }
}
