import { describe, expect, it } from 'vitest';
import { readExternalLine } from '../../../../src/adapters/protocols/external/external-protocol.ts';
import {
  initExternalSessionState,
  translateExternalMessage,
} from '../../../../src/adapters/protocols/external/external-translator.ts';

describe('readExternalLine', () => {
  it('reads the seed example messages, with channel defaulting to stdout', () => {
    expect(
      readExternalLine('{"type":"output","session_id":"abc-123","content":"Hello! How can I help?"}'),
    ).toMatchObject({
      kind: 'message',
      message: { type: 'output', session_id: 'abc-123', content: 'Hello! How can I help?', channel: 'stdout' },
    });
    expect(readExternalLine('{"type":"turn.complete","session_id":"abc-123"}')).toMatchObject({
      kind: 'message',
      message: { type: 'turn.complete', session_id: 'abc-123' },
    });
    expect(
      readExternalLine(
        '{"type":"file.output","session_id":"abc-123","file_name":"result.png","file_mime_type":"image/png","file_path":"/tmp/output/result.png"}',
      ),
    ).toMatchObject({ kind: 'message', message: { type: 'file.output', file_name: 'result.png' } });
    expect(
      readExternalLine(
        '{"type":"permission.request","session_id":"s","request_id":"r1","tool":"Bash","description":"run ls","resource":"/tmp"}',
      ),
    ).toMatchObject({ kind: 'message', message: { type: 'permission.request', request_id: 'r1', tool: 'Bash' } });
  });

  it('tells malformed lines, unknown types and stray text apart', () => {
    expect(readExternalLine('{"type": broken')).toMatchObject({ kind: 'malformed' });
    expect(readExternalLine('[1,2]')).toMatchObject({ kind: 'malformed', reason: 'a JSON line that is not an object' });
    expect(readExternalLine('{"type":"output","content":"x"}')).toMatchObject({
      kind: 'malformed',
      reason: 'a output message without a session_id',
    });
    expect(readExternalLine('{"type":"output","session_id":"s"}')).toMatchObject({ kind: 'malformed', sessionId: 's' });
    expect(readExternalLine('{"type":"progress","session_id":"s"}')).toMatchObject({
      kind: 'unknown',
      sessionId: 's',
      type: 'progress',
    });
    expect(readExternalLine('hello from a print statement')).toEqual({
      kind: 'text',
      line: 'hello from a print statement',
    });
  });
});

describe('translateExternalMessage', () => {
  it('maps output, file output, permission requests and turn completion', () => {
    const state = initExternalSessionState(false, 's1');
    const t = (value: unknown) => {
      const read = readExternalLine(JSON.stringify(value));
      if (read.kind !== 'message') throw new Error(read.kind);
      return translateExternalMessage(read.message, state);
    };
    expect(t({ type: 'output', session_id: 's1', content: 'Hel' })).toEqual([
      { type: 'message_start' },
      { type: 'text_delta', delta: 'Hel' },
    ]);
    expect(t({ type: 'output', session_id: 's1', content: 'lo' })).toEqual([{ type: 'text_delta', delta: 'lo' }]);
    expect(t({ type: 'output', session_id: 's1', content: 'careful\n', channel: 'stderr' })).toEqual([
      { type: 'log', source: 'stderr', line: 'careful' },
    ]);
    expect(
      t({
        type: 'file.output',
        session_id: 's1',
        file_name: 'a.csv',
        file_mime_type: 'text/csv',
        file_path: '/tmp/a.csv',
      }),
    ).toEqual([{ type: 'file_output', fileName: 'a.csv', path: '/tmp/a.csv', mimeType: 'text/csv' }]);
    expect(
      t({
        type: 'permission.request',
        session_id: 's1',
        request_id: 7,
        tool: 'Bash',
        description: 'run ls',
        resource: '.',
      }),
    ).toEqual([
      {
        type: 'approval_request',
        approvalId: 's1/7',
        toolName: 'Bash',
        input: { tool: 'Bash', description: 'run ls', resource: '.' },
        reason: 'run ls',
      },
    ]);
    expect(t({ type: 'turn.complete', session_id: 's1' })).toEqual([
      { type: 'message_stop', text: 'Hello' },
      { type: 'turn_end', turn: 0, stopReason: 'turn.complete', result: 'Hello' },
    ]);
    expect(state.outcome).toEqual({ status: 'completed' });
    expect(t({ type: 'turn.complete', session_id: 's1' })).toEqual([]);
  });
});
