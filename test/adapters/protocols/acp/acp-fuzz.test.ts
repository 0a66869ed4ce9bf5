import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acpController, acpTranslator, decodeAcpMessage } from '../../../../src/adapters/protocols/acp/index.ts';
import type { LaunchContext, RunIO } from '../../../../src/core/adapter/index.ts';
import { parseRecord } from '../../../../src/core/decode/parse-record.ts';

/** JSON-RPC-shaped values: right and wrong versions, ids, methods, updates, errors, junk. */
const anyId = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.boolean(), fc.object());
const method = fc.oneof(
  fc.constantFrom('session/update', 'session/request_permission', 'fs/read_text_file', 'fs/write_text_file', 'x/y'),
  fc.string(),
);
const update = fc.record(
  {
    sessionUpdate: fc.oneof(
      fc.constantFrom(
        'agent_message_chunk',
        'agent_thought_chunk',
        'tool_call',
        'tool_call_update',
        'plan',
        'usage_update',
        'user_message_chunk',
      ),
      fc.string(),
    ),
    content: fc.oneof(
      fc.record({ type: fc.constantFrom('text', 'image', 'diff'), text: fc.anything() }),
      fc.anything(),
    ),
    toolCallId: fc.oneof(fc.string(), fc.anything()),
    status: fc.oneof(fc.constantFrom('pending', 'completed', 'failed'), fc.anything()),
    entries: fc.anything(),
    cost: fc.oneof(fc.record({ amount: fc.double(), currency: fc.constantFrom('USD', 'EUR') }), fc.anything()),
    _meta: fc.anything(),
  },
  { requiredKeys: [] },
);
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.anything()),
    id: anyId,
    method,
    params: fc.oneof(fc.record({ sessionId: fc.string(), update }), fc.anything()),
    result: fc.oneof(
      fc.record({ stopReason: fc.anything(), sessionId: fc.anything(), usage: fc.anything() }),
      fc.anything(),
    ),
    error: fc.oneof(fc.record({ code: fc.anything(), message: fc.anything(), data: fc.anything() }), fc.anything()),
  },
  { requiredKeys: [] },
);
/** A line as the agent might print it: a message, any JSON, or arbitrary text. */
const line = fc.oneof(
  message.map((m) => JSON.stringify(m)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string(),
);

const ctx: LaunchContext = {
  request: { prompt: 'p', cwd: '/w', resumeSessionId: 'old' },
  runId: 'r',
  taskId: 'r',
  leaseToken: '',
  leaseEpoch: 0,
  mcpUrl: '',
  mcpToken: '',
  workspacePath: '/w',
  env: {},
  debug: true,
};

describe('ACP JSON-RPC decoding under fuzz', () => {
  it('10,000 random lines: decoding and translation never throw, the controller takes them all', async () => {
    let lines = 0;
    const errors: unknown[] = [];
    const io: RunIO = {
      writeLine: async () => undefined,
      emit: () => undefined,
      fail: () => undefined,
      signal: new AbortController().signal,
    };
    const controller = acpController(io, ctx);
    const onUnhandled = (error: unknown) => errors.push(error);
    process.on('unhandledRejection', onUnhandled);
    try {
      fc.assert(
        fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (batch) => {
          const state = acpTranslator.init({ debug: true, request: ctx.request });
          for (const text of batch) {
            lines++;
            const record = parseRecord(text, 'json-lines');
            if (record.kind === 'malformed') continue;
            if (record.kind === 'json') decodeAcpMessage(record.value);
            const drafts = acpTranslator.translate(record, state);
            expect(Array.isArray(drafts)).toBe(true);
            controller.onRecord?.(record);
          }
          acpTranslator.finish?.({ exitCode: 0, signal: null }, state);
        }),
        { numRuns: 2500 },
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      await controller.settle?.();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(lines).toBeGreaterThanOrEqual(10_000);
    expect(errors).toEqual([]);
  });
});
