import { describe, expect, it } from 'vitest';
import { createWorkflowLog } from '../../src/action/workflow-log.ts';
import type { AgentEvent } from '../../src/core/events/index.ts';

const T0 = 1_700_000_000_000;
const base = (ms: number) => ({ runId: 'r1', agent: 'demo', timestamp: T0 + ms });

function record() {
  const out: string[] = [];
  const log = createWorkflowLog(
    {
      info: (line) => out.push(line),
      startGroup: (title) => out.push(`::group::${title}`),
      endGroup: () => out.push('::endgroup::'),
    },
    (text) => text.replaceAll('s3cret', '***'),
  );
  return { out, log };
}

describe('createWorkflowLog', () => {
  it('opens one group per step and puts each line in the step it belongs to', () => {
    const { out, log } = record();
    const events = [
      { ...base(0), type: 'session_start', sessionId: 's', model: 'm-1' },
      { ...base(1000), type: 'progress', summary: 'reading the issue' },
      { ...base(1500), type: 'text_delta', delta: 'I will ' },
      { ...base(1600), type: 'text_delta', delta: 'edit\nthe README' },
      { ...base(2000), type: 'tool_call_start', toolCallId: 't1', toolName: 'Edit' },
      { ...base(2100), type: 'tool_call_ready', toolCallId: 't1', toolName: 'Edit', input: { path: 'README.md' } },
      { ...base(2200), type: 'approval_request', approvalId: 'a1', toolName: 'Edit', input: { path: 'README.md' } },
      { ...base(65_000), type: 'approval_granted', approvalId: 'a1', scope: 'once', by: 'bob' },
      { ...base(65_100), type: 'tool_result', toolCallId: 't1', isError: false, output: 'ok', durationMs: 12.4 },
      { ...base(66_000), type: 'run_end', reason: 'completed', durationMs: 66_000, totals: {} },
    ] as unknown as AgentEvent[];
    for (const event of events) log.onEvent(event);
    log.close();
    expect(out).toEqual([
      '[00:00] session started · model m-1',
      '::group::[00:01] reading the issue',
      '[00:01] agent: I will edit the README',
      '::endgroup::',
      '::group::[00:02] tool Edit',
      '[00:02] input: {"path":"README.md"}',
      '[00:02] approval asked: Edit {"path":"README.md"}',
      '[01:05] approval a1 granted by bob (once)',
      '[01:05] done (12 ms): ok',
      '::endgroup::',
      '[01:06] run ended after 01:06: completed',
    ]);
  });

  it('redacts every line and group title and keeps what the agent says on one line', () => {
    const { out, log } = record();
    log.onEvent({ ...base(0), type: 'progress', summary: 'key s3cret\n::warning::injected' } as AgentEvent);
    log.onEvent({
      ...base(10),
      type: 'comment',
      text: 'done\n::set-output name=x::s3cret',
      mentions: [],
    } as AgentEvent);
    log.note('approval asked on GitHub for s3cret');
    log.close();
    expect(out.join('\n')).not.toContain('s3cret');
    expect(out.filter((line) => line.startsWith('::') && !/^::(end)?group::/.test(line))).toEqual([]);
    expect(out[0]).toBe('::group::[00:00] key *** ::warning::injected');
  });

  it('closes nothing it did not open', () => {
    const { out, log } = record();
    log.onEvent({ ...base(0), type: 'text_delta', delta: 'hello' } as AgentEvent);
    log.close();
    expect(out).toEqual(['[00:00] agent: hello']);
  });
});
