import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';

/** A webhook payload of a triggering event and action lacks a field the trigger needs (the zod error is the cause). */
export class TriggerPayloadError extends AgentMuxError {
  readonly eventName: string;

  constructor(eventName: string, message: string, options?: { cause?: unknown }) {
    super('trigger_payload_invalid', `Malformed ${eventName} payload: ${message}`, options);
    this.name = 'TriggerPayloadError';
    this.eventName = eventName;
  }

  static override isInstance(error: unknown): error is TriggerPayloadError {
    return AgentMuxError.isInstance(error) && error.code === 'trigger_payload_invalid';
  }
}
