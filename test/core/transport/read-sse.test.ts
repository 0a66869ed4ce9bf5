import { describe, expect, it } from 'vitest';
import type { Translator } from '../../../src/core/adapter/index.ts';
import type { ParsedRecord } from '../../../src/core/decode/parse-record.ts';
import type { EventDraft } from '../../../src/core/events/index.ts';
import { RecordPipeline } from '../../../src/core/run/record-pipeline.ts';
import { readSse } from '../../../src/core/transport/read-sse.ts';
import { sseRecord } from '../../../src/core/transport/sse-record.ts';

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  const encoder = new TextEncoder();
  for (const part of parts) yield encoder.encode(part);
}

/** Echoes each record as a log line, so the test sees what reached the translator. */
const echo: Translator = {
  init: ({ debug }) => ({ debug }),
  translate: (record) => [
    {
      type: 'log',
      source: 'stdout',
      line: record.kind === 'json' ? JSON.stringify(record.value) : `text:${record.line}`,
    },
  ],
};

describe('sseRecord', () => {
  it('parses data as JSON, names an untyped object by its event when asked, and reports or passes on non-JSON', () => {
    expect(sseRecord({ id: undefined, event: 'progress', data: '{"a":1}' }, { eventAsType: true })).toEqual({
      kind: 'json',
      value: { a: 1, type: 'progress' },
    });
    expect(sseRecord({ id: undefined, event: 'progress', data: '{"type":"x"}' }, { eventAsType: true })).toEqual({
      kind: 'json',
      value: { type: 'x' },
    });
    expect(sseRecord({ id: undefined, event: undefined, data: '[1]' }, { eventAsType: true })).toEqual({
      kind: 'json',
      value: [1],
    });
    expect(sseRecord({ id: undefined, event: 'p', data: 'nope' })).toMatchObject({ kind: 'malformed', line: 'nope' });
    expect(sseRecord({ id: undefined, event: undefined, data: 'nope' }, { nonJson: 'text' })).toEqual({
      kind: 'text',
      line: 'nope',
    });
  });
});

describe('readSse', () => {
  it('feeds split frames into a RecordPipeline: records translated in order, bad data one malformed_record each', async () => {
    const drafts: EventDraft[] = [];
    const pipeline = new RecordPipeline({
      translator: echo,
      protocol: 'json-lines',
      debug: false,
      emit: (d) => drafts.push(d),
    });
    const seen: string[] = [];
    await readSse(chunks('event: a\nda', 'ta: {"n":1}\n\ndata: not json\n\n', 'data: {"n":2}\n\n'), {
      sink: pipeline,
      eventAsType: true,
      onMessage: (message) => seen.push(message.data),
    });
    expect(seen).toEqual(['{"n":1}', 'not json', '{"n":2}']);
    expect(drafts.map((d) => (d.type === 'log' ? d.line : d.type === 'error' ? d.code : d.type))).toEqual([
      '{"n":1,"type":"a"}',
      'malformed_record',
      '{"n":2}',
    ]);
  });

  it('awaits afterRecord before the next record, and stops reading once its signal aborts', async () => {
    const order: string[] = [];
    const stop = new AbortController();
    const sink = {
      pushRecord: (record: ParsedRecord) => {
        order.push(record.kind === 'json' ? String((record.value as { n: number }).n) : record.kind);
      },
    };
    await readSse(chunks('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n', 'data: {"n":4}\n\n'), {
      sink,
      signal: stop.signal,
      afterRecord: () => {
        if (order.length !== 2) return undefined;
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            order.push('answered');
            stop.abort();
            resolve();
          }, 5),
        );
      },
    });
    expect(order).toEqual(['1', '2', 'answered']);
  });

  it('rejects when the body breaks', async () => {
    async function* broken(): AsyncIterable<Uint8Array> {
      yield new TextEncoder().encode('data: {"n":1}\n\n');
      throw new Error('connection reset');
    }
    const records: ParsedRecord[] = [];
    await expect(readSse(broken(), { sink: { pushRecord: (r) => records.push(r) } })).rejects.toThrow(
      'connection reset',
    );
    expect(records).toEqual([{ kind: 'json', value: { n: 1 } }]);
  });
});
