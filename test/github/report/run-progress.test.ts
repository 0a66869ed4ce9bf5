import { describe, expect, it } from 'vitest';
import { MAX_LOG_LINE_CHARS, RunProgress } from '../../../src/github/report/run-progress.ts';
import {
  approvalEvents,
  cancelledEvents,
  eventMaker,
  failureEvents,
  progressOf,
  successEvents,
  T0,
  workingEvents,
} from './scenarios.ts';

describe('RunProgress', () => {
  it('starts queued with the agent and model it was given', () => {
    const progress = new RunProgress({ agent: 'codex', model: 'gpt-5' });
    expect(progress).toMatchObject({ status: 'queued', agent: 'codex', model: 'gpt-5', elapsedMs: 0, usd: 0 });
    expect(progress.log.render()).toBe('');
  });

  it('lists a file as written only once its write succeeded: not a denied, failed or pending one (issue 33.4)', () => {
    const m = eventMaker();
    const write = (id: string, path: string) => [
      m.e('tool_call_start', { toolCallId: id, toolName: 'Write' }),
      m.e('tool_call_ready', { toolCallId: id, toolName: 'Write', input: { file_path: path } }),
    ];
    const progress = progressOf([
      ...write('ok', 'a.md'),
      m.e('tool_result', { toolCallId: 'ok', toolName: 'Write', output: 'done', isError: false }),
      ...write('denied', 'b.md'),
      m.e('tool_result', { toolCallId: 'denied', toolName: 'Write', output: 'denied by @bob', isError: true }),
      ...write('pending', 'c.md'),
    ]);
    expect(progress.files).toEqual(['a.md']);
  });

  it('follows a realistic run: model, tokens, steps, files, log', () => {
    const progress = progressOf(workingEvents());
    expect(progress.status).toBe('running');
    expect(progress.model).toBe('claude-sonnet-4-5');
    expect(progress.sessionId).toBe('s-1');
    expect(progress.startedAt).toBe(T0);
    expect(progress.elapsedMs).toBe(3800);
    expect([progress.inputTokens, progress.outputTokens]).toEqual([2000, 500]);
    expect(progress.usd).toBeCloseTo(0.02, 10);
    expect(progress.steps.map((s) => [s.kind, s.title, s.state])).toEqual([
      ['progress', 'Reproduce the failure', 'done'],
      ['tool', 'read_file src/sum.ts', 'done'],
      ['progress', 'Fix `sum` in src/sum.ts', 'running'],
      ['tool', 'write_file src/sum.ts', 'done'],
    ]);
    expect(progress.currentStep?.title).toBe('Fix `sum` in src/sum.ts');
    // write_file's relative path and file_output's absolute path are one file.
    expect(progress.files).toEqual(['src/sum.ts']);
    expect(progress.log.render().split('\n')).toEqual([
      '[00:00] session started · model claude-sonnet-4-5',
      '[00:00] agent: Let me look at the failing test.',
      '[00:01] progress: Reproduce the failure',
      '[00:02] tool read_file',
      '[00:02] tool read_file src/sum.ts done (12 ms): export const sum = (a, b) => a - b;',
      '[00:03] progress: Fix `sum` in src/sum.ts',
      '[00:03] tool write_file',
      '[00:03] tool write_file src/sum.ts done: {"path":"src/sum.ts","bytes":36}',
      '[00:03] file written: /work/src/sum.ts',
    ]);
  });

  it('waits for approval and resumes when it is granted', () => {
    const progress = progressOf(approvalEvents());
    expect(progress.status).toBe('awaiting_approval');
    expect(progress.pendingApprovals).toEqual([
      {
        id: 'ap-7',
        toolName: 'bash',
        summary: '{"command":"npm test -- sum"}',
        reason: 'runs a shell command',
        state: 'pending',
      },
    ]);
    const done = progressOf(successEvents());
    expect(done.approvals[0]).toMatchObject({ state: 'approved', by: 'octocat', scope: 'once' });
    expect(done.status).toBe('completed');
    expect(done.pendingMessageLine).toBeUndefined();
    expect(done.log.last).toBe('[01:15] run ended: completed');
    expect(done.log.render()).toContain('[00:23] agent: Fixed: `sum` subtracted instead of adding.');
    // run_end totals are authoritative.
    expect([done.inputTokens, done.outputTokens, done.usd, done.elapsedMs]).toEqual([5400, 1250, 0.0421, 75_000]);
    expect(done.steps.every((s) => s.state === 'done')).toBe(true);
  });

  it.each([
    ['completed', 'completed'],
    ['failed', 'failed'],
    ['crashed', 'failed'],
    ['budget_exceeded', 'failed'],
    ['aborted', 'cancelled'],
    ['timeout', 'timed_out'],
    ['inactivity', 'timed_out'],
  ] as const)('maps run_end %s to %s', (reason, status) => {
    const m = eventMaker();
    const totals = { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 };
    const progress = progressOf([...workingEvents(), m.e('run_end', { reason, durationMs: 5, attempts: 1, totals })]);
    expect(progress.status).toBe(status);
    expect(progress.steps.some((s) => s.state === 'running')).toBe(false);
  });

  it('keeps the last error and marks failed tools', () => {
    const progress = progressOf(failureEvents());
    expect(progress.status).toBe('failed');
    expect(progress.lastError).toBe('crashed (exit code 1): fatal: model overloaded');
    expect(progress.steps.find((s) => s.id === 't3')?.state).toBe('failed');
    expect(progress.steps.find((s) => s.kind === 'progress' && s.title.startsWith('Fix'))?.state).toBe('failed');
  });

  it('records denials and closes approvals left pending at the end', () => {
    const progress = progressOf(cancelledEvents());
    expect(progress.approvals[0]).toMatchObject({ state: 'denied', by: 'hubot', denyReason: 'not now' });
    expect(progress.status).toBe('cancelled');
    const m = eventMaker();
    const totals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 };
    const ended = progressOf([
      ...approvalEvents(),
      m.e('run_end', { reason: 'aborted', durationMs: 1, attempts: 1, totals }),
    ]);
    expect(ended.pendingApprovals).toEqual([]);
    expect(ended.approvals[0]?.denyReason).toBe('the run ended first');
  });

  it('adds cumulative costs by replacing, increments by adding', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('cost', { inputTokens: 10, outputTokens: 1, usd: 0.5 }),
      m.e('cost', { inputTokens: 10, outputTokens: 1, usd: 0.5 }),
      m.e('cost', { inputTokens: 100, outputTokens: 7, usd: 2, cumulative: true }),
      m.e('cost', { inputTokens: 1, outputTokens: 1 }),
    ]);
    expect([progress.inputTokens, progress.outputTokens, progress.usd]).toEqual([101, 8, 2]);
  });

  it('merges text deltas into one message line, shown as pending until the message ends', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('text_delta', { delta: 'Hello\n' }, 0),
      m.e('text_delta', { delta: 'world' }, 1000),
    ]);
    expect(progress.log.size).toBe(0);
    expect(progress.pendingMessageLine).toBe('[00:00] agent: Hello world');
    progress.apply(m.e('tool_call_start', { toolCallId: 'x', toolName: 'ls' }, 2000));
    expect(progress.log.render()).toBe('[00:00] agent: Hello world\n[00:02] tool ls');
    expect(progress.pendingMessageLine).toBeUndefined();
  });

  it('logs a streamed message once when a cost or a tool call comes before its message_stop', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('message_start', { messageId: 'm1' }, 0),
      m.e('text_delta', { delta: 'Let me ', messageId: 'm1' }, 100),
      m.e('cost', { inputTokens: 10, outputTokens: 2 }, 200),
      m.e('text_delta', { delta: 'check.', messageId: 'm1' }, 300),
      m.e('cost', { inputTokens: 10, outputTokens: 2 }, 400),
      m.e('message_stop', { messageId: 'm1', text: 'Let me check.' }, 500),
      m.e('message_start', { messageId: 'm2' }, 1000),
      m.e('text_delta', { delta: 'Running it.', messageId: 'm2' }, 1100),
      m.e('tool_call_start', { toolCallId: 't1', toolName: 'ls' }, 2000),
      m.e('message_stop', { messageId: 'm2', text: 'Running it.' }, 2100),
    ]);
    expect(progress.log.render()).toBe('[00:00] agent: Let me check.\n[00:01] agent: Running it.\n[00:02] tool ls');
  });

  it('uses message_stop text when no deltas came, and ignores quiet events', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('thinking_delta', { delta: 'hmm' }),
      m.e('debug', { message: 'x' }),
      m.e('tool_input_delta', { toolCallId: 'a', delta: '{' }),
      m.e('message_stop', { text: 'Done.' }),
    ]);
    expect(progress.log.render()).toBe('[00:00] agent: Done.');
  });

  it('cuts every log line to 500 characters', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('text_delta', { delta: 'a'.repeat(3000) }),
      m.e('log', { source: 'stderr', line: 'b'.repeat(3000) }),
      m.e('error', { code: 'internal', message: 'c'.repeat(3000), recoverable: true }),
      m.e('tool_result', { toolCallId: 'q', output: 'd'.repeat(3000), isError: false }),
    ]);
    const lines = progress.log.render().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS);
    expect(progress.lastError?.length).toBeLessThanOrEqual(MAX_LOG_LINE_CHARS);
  });

  it('labels MCP tool calls with their server', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('mcp_tool_call_start', {
        toolCallId: 'm1',
        server: 'github',
        toolName: 'get_issue',
        input: { query: '#12' },
      }),
      m.e('mcp_tool_result', { toolCallId: 'm1', server: 'github', toolName: 'get_issue', output: {}, isError: false }),
    ]);
    expect(progress.steps).toEqual([
      { id: 'm1', kind: 'tool', title: 'github/get_issue #12', tool: 'github/get_issue', target: '#12', state: 'done' },
    ]);
  });

  it('notes go to the log at the given time', () => {
    const progress = progressOf(workingEvents());
    progress.note('approval asked on GitHub', T0 + 61_000);
    expect(progress.log.last).toBe('[01:01] approval asked on GitHub');
  });
});

describe('quoteAgentMarkdown (the answer in the tracking comment and job summary)', () => {
  it('quotes the Markdown whole, makes @mentions and HTML comments inert, cuts and says so', async () => {
    const { quoteAgentMarkdown } = await import('../../../src/github/report/markdown.ts');
    const answer = 'The test is **flaky** because of a race.\n\n<!-- agent-mux:turn:eyJ9 -->\nThanks @alice';
    const quoted = quoteAgentMarkdown(answer, 8000);
    expect(quoted.split('\n')).toEqual([
      '> The test is **flaky** because of a race.',
      '>',
      '> &lt;!-- agent-mux:turn:eyJ9 -->',
      '> Thanks @\u200balice',
    ]);
    expect(quoteAgentMarkdown('x'.repeat(50), 10)).toBe('> xxxxxxxxxx\n>\n> _… cut at 10 characters._');
  });
});
