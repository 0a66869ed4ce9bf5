import { z } from 'zod';
import * as errors from './error-events.ts';
import * as messages from './message-events.ts';
import * as runs from './run-events.ts';
import * as sessions from './session-events.ts';
import * as tools from './tool-events.ts';

/** Every normalized event schema, one per `type`. */
export const agentEventSchemas = [
  sessions.sessionStartEvent,
  sessions.sessionResumeEvent,
  sessions.sessionForkEvent,
  sessions.turnStartEvent,
  sessions.turnEndEvent,
  messages.messageStartEvent,
  messages.textDeltaEvent,
  messages.messageStopEvent,
  messages.thinkingStartEvent,
  messages.thinkingDeltaEvent,
  messages.thinkingStopEvent,
  messages.imageOutputEvent,
  messages.fileOutputEvent,
  messages.progressEvent,
  messages.commentEvent,
  tools.toolCallStartEvent,
  tools.toolInputDeltaEvent,
  tools.toolCallReadyEvent,
  tools.toolResultEvent,
  tools.mcpToolCallStartEvent,
  tools.mcpToolResultEvent,
  tools.skillLoadedEvent,
  tools.skillInvokedEvent,
  tools.pluginLoadedEvent,
  tools.pluginInvokedEvent,
  tools.approvalRequestEvent,
  tools.approvalGrantedEvent,
  tools.approvalDeniedEvent,
  runs.costEvent,
  runs.noticeEvent,
  runs.runEndEvent,
  errors.authErrorEvent,
  errors.rateLimitErrorEvent,
  errors.contextExceededEvent,
  errors.crashEvent,
  errors.errorEvent,
  errors.debugEvent,
  errors.logEvent,
] as const;

export const agentEventSchema = z.discriminatedUnion('type', agentEventSchemas);

/** One normalized event. */
export type AgentEvent = z.infer<typeof agentEventSchema>;
export type AgentEventType = AgentEvent['type'];
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

type BaseKeys = 'runId' | 'agent' | 'timestamp';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * An event as a translator produces it: the core stamps `runId`, `agent` and `timestamp`.
 * `run_end` is never a draft: only the core ends a run.
 */
export type EventDraft = DistributiveOmit<Exclude<AgentEvent, { type: 'run_end' }>, BaseKeys>;
export type DraftOf<T extends Exclude<AgentEventType, 'run_end'>> = Extract<EventDraft, { type: T }>;

export const agentEventTypes: readonly AgentEventType[] = agentEventSchemas.map((s) => s.shape.type.value);

/** Validates an event (tests and the contract suite); never on the hot path. */
export function parseAgentEvent(value: unknown): AgentEvent {
  return agentEventSchema.parse(value);
}
