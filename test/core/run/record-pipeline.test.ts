import { describe, expect, it } from 'vitest';
import type { Translator } from '../../../src/core/adapter/index.ts';
import type { EventDraft } from '../../../src/core/events/index.ts';
import { RecordPipeline } from '../../../src/core/run/record-pipeline.ts';

/** A translator that throws on records whose `boom` is set, and reads the time from its clock. */
const throwing: Translator<{ debug: boolean; now: () => number }> = {
  init: ({ debug, clock }) => ({ debug, now: clock ?? Date.now }),
  translate(record, state) {
    if (record.kind === 'json' && (record.value as { boom?: boolean }).boom) throw new Error('odd record');
    return [{ type: 'log', source: 'stdout', line: `at ${state.now()}` }];
  },
  stderr() {
    throw new Error('odd stderr');
  },
  finish() {
    throw new Error('odd finish');
  },
};

describe('RecordPipeline', () => {
  it('turns a throwing translate, stderr or finish into one recoverable internal error each and goes on', () => {
    const drafts: EventDraft[] = [];
    const pipeline = new RecordPipeline({
      translator: throwing,
      protocol: 'json-lines',
      debug: false,
      name: 'odd',
      clock: () => 42,
      emit: (draft) => drafts.push(draft),
    });
    pipeline.pushStdout('{"boom":true}\n{"ok":1}\n');
    pipeline.pushStderr('warning\n');
    pipeline.end();
    pipeline.finish({ exitCode: 0, signal: null });
    expect(drafts).toEqual([
      { type: 'error', code: 'internal', message: 'odd translator: odd record', recoverable: true },
      { type: 'log', source: 'stdout', line: 'at 42' },
      { type: 'error', code: 'internal', message: 'odd translator: odd stderr', recoverable: true },
      { type: 'error', code: 'internal', message: 'odd translator: odd finish', recoverable: true },
    ]);
  });
});

describe('RecordPipeline.pushRecord', () => {
  it('takes framed records through the same guard, reports malformed ones by their source, and shows each to onRecord', () => {
    const drafts: EventDraft[] = [];
    const seen: string[] = [];
    const pipeline = new RecordPipeline({
      translator: throwing,
      protocol: 'json-lines',
      debug: false,
      name: 'odd',
      clock: () => 7,
      emit: (draft) => drafts.push(draft),
      onRecord: (record) => seen.push(record.kind),
    });
    pipeline.pushRecord({ kind: 'json', value: { boom: true } });
    pipeline.pushRecord({ kind: 'malformed', line: 'data: {', error: 'Unexpected end' }, 'SSE data');
    pipeline.pushRecord({ kind: 'text', line: 'hello' });
    expect(drafts).toEqual([
      { type: 'error', code: 'internal', message: 'odd translator: odd record', recoverable: true },
      {
        type: 'error',
        code: 'malformed_record',
        message: 'unparseable SSE data (Unexpected end): data: {',
        recoverable: true,
      },
      { type: 'log', source: 'stdout', line: 'at 7' },
    ]);
    expect(seen).toEqual(['json', 'text']);
  });
});
