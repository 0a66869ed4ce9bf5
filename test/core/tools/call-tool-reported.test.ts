import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../../../src/core/events/index.ts';
import { callToolReported } from '../../../src/core/tools/call-tool-reported.ts';
import type { ToolHost } from '../../../src/core/tools/tool-host.ts';

const signal = new AbortController().signal;

describe('callToolReported', () => {
  it("runs the call through the tool host and reports its result with the clock's duration", async () => {
    const drafts: EventDraft[] = [];
    let now = 100;
    const tools = {
      call: async (name: string, input: unknown) => {
        now = 140;
        return { ok: true as const, value: { name, input } };
      },
    } as unknown as ToolHost; // only `call` is used
    const result = await callToolReported(
      tools,
      (d) => drafts.push(d),
      { toolCallId: 't1', toolName: 'read_file', input: { path: 'a' }, signal },
      () => now,
    );
    expect(result).toEqual({ ok: true, value: { name: 'read_file', input: { path: 'a' } } });
    expect(drafts).toEqual([
      {
        type: 'tool_result',
        toolCallId: 't1',
        toolName: 'read_file',
        output: { name: 'read_file', input: { path: 'a' } },
        isError: false,
        durationMs: 40,
      },
    ]);
  });

  it('answers a run without tools with an error result, reported too', async () => {
    const drafts: EventDraft[] = [];
    const result = await callToolReported(undefined, (d) => drafts.push(d), {
      toolCallId: 't2',
      toolName: 'write_file',
      input: {},
      signal,
    });
    expect(result).toEqual({ ok: false, error: 'this run offers no tools' });
    expect(drafts).toMatchObject([
      { type: 'tool_result', toolCallId: 't2', isError: true, output: 'this run offers no tools' },
    ]);
  });
});
