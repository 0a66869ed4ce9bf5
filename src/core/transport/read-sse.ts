import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ParsedRecord } from '../decode/parse-record.ts';
import { type SseRecordOptions, sseRecord } from './sse-record.ts';

/** Where an SSE stream's records go: a `RecordPipeline` (its `pushRecord`). */
export interface RecordSink {
  pushRecord(record: ParsedRecord, source?: string): void;
}

export interface ReadSseOptions extends SseRecordOptions {
  sink: RecordSink;
  /** Sees each message before it becomes a record (recording native streams). */
  onMessage?: (message: EventSourceMessage) => void;
  /**
   * Awaited after each record, before the next is read: for protocols whose server waits for an
   * answer (a permission relay). Return undefined to go on at once.
   */
  afterRecord?: () => Promise<void> | undefined;
  /** Reading stops (and `readSse` resolves) once this aborts. */
  signal?: AbortSignal;
}

/**
 * The one SSE reader (on `eventsource-parser`): reads a response body to its end, turns each message
 * into a record (`sseRecord`) and pushes it into the sink; a broken frame becomes a `malformed` record.
 * Rejects when the body does (the connection broke); the caller decides what that means for the run.
 */
export async function readSse(body: AsyncIterable<Uint8Array | string>, options: ReadSseOptions): Promise<void> {
  const { sink, signal } = options;
  const pending: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (message) => pending.push(message),
    onError: (error) => sink.pushRecord({ kind: 'malformed', line: '', error: error.message }, 'SSE frame'),
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (pending.length > 0 && !signal?.aborted) {
      const message = pending.shift() as EventSourceMessage;
      options.onMessage?.(message);
      sink.pushRecord(sseRecord(message, options), 'SSE data');
      const wait = options.afterRecord?.();
      if (wait) await wait;
    }
    if (signal?.aborted) return;
  }
}
