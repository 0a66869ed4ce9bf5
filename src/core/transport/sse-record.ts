import type { EventSourceMessage } from 'eventsource-parser';
import type { ParsedRecord } from '../decode/parse-record.ts';

/** How the `data:` of an SSE message becomes a record. */
export interface SseRecordOptions {
  /**
   * A JSON object whose `type` is not a string takes the message's `event:` name as its `type`
   * (protocols that name the record in the event field). Default false.
   */
  eventAsType?: boolean;
  /** Data that is not JSON: a `malformed` record (default), or a `text` record for the translator. */
  nonJson?: 'malformed' | 'text';
}

/** One SSE message as a record: its `data:` parsed as JSON. Never throws. */
export function sseRecord(message: EventSourceMessage, options: SseRecordOptions = {}): ParsedRecord {
  let value: unknown;
  try {
    value = JSON.parse(message.data);
  } catch (error) {
    if (options.nonJson === 'text') return { kind: 'text', line: message.data };
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'malformed',
      line: message.data,
      error: message.event ? `event "${message.event}": ${reason}` : reason,
    };
  }
  if (options.eventAsType && message.event && isObject(value) && typeof value.type !== 'string') {
    value = { ...value, type: message.event };
  }
  return { kind: 'json', value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
