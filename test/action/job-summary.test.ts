import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changedFileAnnotations, MAX_FILE_ANNOTATIONS } from '../../src/action/changed-file-annotations.ts';
import { formatSpan, MAX_SUMMARY_ROWS, renderJobSummary } from '../../src/action/job-summary.ts';
import type { AgentEvent } from '../../src/core/events/index.ts';
import type { ChangedFile } from '../../src/github/git/collect-changes.ts';
import type { RunProgress } from '../../src/github/report/run-progress.ts';
import type { RunOutcome } from '../../src/github/use-cases/execute-run.ts';
import { approvalEvents, eventMaker, failureEvents, progressOf } from '../github/report/scenarios.ts';

/** Compares `actual` with `golden/<name>`; `UPDATE_GOLDEN=1` rewrites the file instead. */
function expectGolden(name: string, actual: string): void {
  const file = new URL(`./golden/${name}`, import.meta.url).pathname;
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`golden file ${name} was missing: written, check it and re-run`);
    return;
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const totals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 };
const CHECK_RUN_URL = 'https://github.com/octo/demo/runs/901';
const trigger = { event: 'issue_comment', actor: 'octocat', repository: 'octo/demo', number: 12 };

/** A run that reads a file, asks to run the tests, gets approval, passes and opens a pull request. */
function successEvents(): AgentEvent[] {
  const m = eventMaker();
  return [
    m.e('session_start', { sessionId: 's-1', model: 'claude-sonnet-4-5', cwd: '/work' }, 0),
    m.e('progress', { summary: 'Find the bug' }, 1000),
    m.e('tool_call_start', { toolCallId: 't1', toolName: 'read_file' }, 1500),
    m.e('tool_call_ready', { toolCallId: 't1', toolName: 'read_file', input: { path: 'src/sum.ts' } }, 1600),
    m.e('tool_result', { toolCallId: 't1', toolName: 'read_file', output: 'x', isError: false }, 1850),
    m.e('progress', { summary: 'Run the tests: npm test | tail' }, 3000),
    m.e('tool_call_start', { toolCallId: 't2', toolName: 'bash' }, 3100),
    m.e('tool_call_ready', { toolCallId: 't2', toolName: 'bash', input: { command: 'npm test -- sum' } }, 3200),
    m.e(
      'approval_request',
      { approvalId: 'ap-7', toolName: 'bash', input: { command: 'npm test -- sum' }, reason: 'runs a shell command' },
      3300,
    ),
    m.e('approval_granted', { approvalId: 'ap-7', scope: 'once', by: 'octocat' }, 20_000),
    m.e('tool_result', { toolCallId: 't2', toolName: 'bash', output: 'Tests: 3 passed', isError: false }, 22_100),
    m.e(
      'run_end',
      {
        reason: 'completed',
        durationMs: 75_000,
        attempts: 1,
        totals: { ...totals, inputTokens: 5400, outputTokens: 1250, cacheReadTokens: 1000, usd: 0.0421 },
      },
      75_000,
    ),
  ];
}

function outcomeOf(progress: RunProgress, fields: Partial<RunOutcome> & Pick<RunOutcome, 'conclusion'>): RunOutcome {
  return {
    runId: 'run-42',
    end: undefined,
    checkRunId: 901,
    checkRunName: 'agent-mux / claude',
    checkRunUrl: CHECK_RUN_URL,
    commentId: 77,
    changedFiles: [],
    approvals: progress.approvals.map((a) => ({ approvalId: a.id, toolName: a.toolName, decision: a.state, by: a.by })),
    progress,
    ...fields,
  };
}

function endOf(events: AgentEvent[]): RunOutcome['end'] {
  const last = events.at(-1);
  return last?.type === 'run_end' ? last : undefined;
}

const sumFile: ChangedFile = { path: 'src/sum.ts', status: 'modified', firstLine: 1, additions: 1, deletions: 1 };

describe('renderJobSummary', () => {
  it('summarizes a successful run with a pull request, two tool calls and one approval', () => {
    const events = successEvents();
    const outcome = outcomeOf(progressOf(events), {
      conclusion: 'success',
      end: endOf(events),
      branch: 'agent-mux/fix-sum',
      pullRequestUrl: 'https://github.com/octo/demo/pull/13',
      changedFiles: [sumFile, { path: 'test/sum.test.ts', status: 'added', firstLine: 1, additions: 12, deletions: 0 }],
    });
    expectGolden('success.md', renderJobSummary({ outcome, agent: 'claude', installMs: 8_420, trigger }));
  });

  it('summarizes a failed run with its reason and last error', () => {
    const events = failureEvents();
    const outcome = outcomeOf(progressOf(events), {
      conclusion: 'failure',
      reason: 'crashed: exit code 1',
      end: endOf(events),
    });
    expectGolden('failure.md', renderJobSummary({ outcome, agent: 'claude', trigger }));
  });

  it('summarizes a run cancelled while an approval was pending', () => {
    const progress = progressOf(approvalEvents());
    progress.close(false);
    const outcome = outcomeOf(progress, { conclusion: 'cancelled', reason: 'the workflow run was cancelled' });
    expectGolden(
      'cancelled.md',
      renderJobSummary({ outcome, agent: 'claude', trigger: { ...trigger, event: 'pull_request_review_comment' } }),
    );
  });

  it('escapes what came from the agent or a user', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('session_start', { sessionId: 's', model: '<b>model</b>', cwd: '/w' }, 0),
      m.e('tool_call_start', { toolCallId: 't1', toolName: 'bash' }, 10),
      m.e('tool_call_ready', { toolCallId: 't1', toolName: 'bash', input: { command: 'a | b\n```\n@admin' } }, 20),
      m.e('approval_request', { approvalId: 'x|y', toolName: 'bash', input: 'rm -rf /', reason: '**now** @team' }, 30),
      m.e('approval_denied', { approvalId: 'x|y', reason: '<script>', by: '@evil' }, 40),
    ]);
    const text = renderJobSummary({
      outcome: outcomeOf(progress, { conclusion: 'failure', reason: '## boom\n- list @org/team' }),
      agent: '*claude*',
      trigger: { ...trigger, actor: 'someone' },
    });
    expect(text).toContain('## ❌ agent-mux: \\*claude\\* failed');
    expect(text).toContain('| Model | &lt;b&gt;model&lt;/b&gt; |');
    expect(text).toContain('| `bash` | ````a \\| b ``` @admin```` | running | 00:00 |  |');
    expect(text).toContain('| `x\\|y` | `bash` | `rm -rf /` | denied | @\u200bevil | &lt;script&gt; | 10 ms |');
    expect(text).toContain('**Reason:** \\#\\# boom - list @\u200borg/team');
    // Mermaid block is there and closed.
    expect(text.trimEnd().endsWith('```')).toBe(true);
  });

  function manyEvents(title: (i: number) => string): AgentEvent[] {
    const m = eventMaker();
    const events: AgentEvent[] = [];
    for (let i = 0; i < 3000; i++) {
      events.push(m.e('tool_call_start', { toolCallId: `t${i}`, toolName: 'tool' }, i));
      events.push(m.e('tool_call_ready', { toolCallId: `t${i}`, toolName: 'tool', input: { path: title(i) } }, i));
      const approval = { approvalId: `a${i}`, toolName: title(i), input: title(i), reason: title(i) };
      events.push(m.e('approval_request', approval, i));
      events.push(m.e('approval_denied', { approvalId: `a${i}`, reason: title(i), by: title(i) }, i + 1));
    }
    return events;
  }
  const render = (events: AgentEvent[]) =>
    renderJobSummary({ outcome: outcomeOf(progressOf(events), { conclusion: 'failure' }), agent: 'a', trigger });

  it(`caps its tables at ${MAX_SUMMARY_ROWS} rows and counts the rest`, () => {
    const text = render(manyEvents((i) => `src/file-${i}.ts`));
    expect(text).toContain('| `tool` | `src/file-199.ts` | running | 00:00 |  |\n| … 2,800 more |  |  |  |  |\n');
    expect(text).toContain('| 1 ms |\n| … 2,800 more |  |  |  |  |  |  |\n');
    expect(text).toContain('    … 5902 more steps :');
  });

  it('stays under 1 MiB of UTF-8 however long and Markdown-heavy the cells are', () => {
    const text = render(manyEvents((i) => `${'&<|'.repeat(60)}@team ${'&'.repeat(100)}${i}`));
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
    // Either the tables fit, or they were cut (and said so) before the timeline.
    expect(
      text.includes('| … 2,800 more |  |  |  |  |  |  |') || text.includes('_… cut to fit GitHub’s size limit_'),
    ).toBe(true);
    expect(text).toMatch(/\n```mermaid\ngantt\n[^`]*\n```\n$/);
  });

  it('issue 32.16: 140,000 progress steps do not crash it (no spread of every step into Math.max)', () => {
    const m = eventMaker();
    const events: AgentEvent[] = [];
    for (let i = 0; i < 140_000; i++) events.push(m.e('progress', { summary: `step ${i}` }, i));
    const text = render(events);
    expect(text).toMatch(/… \d+ more steps :/);
  });

  it('leaves out the timeline and says so when nothing happened', () => {
    const progress = progressOf([]);
    const text = renderJobSummary({
      outcome: outcomeOf(progress, { conclusion: 'failure', reason: 'could not start: no such agent' }),
      agent: 'claude',
      trigger: { event: 'workflow_dispatch', actor: 'octocat', repository: 'octo/demo' },
    });
    expect(text).toContain('### Tool calls (0)\n\n_None._');
    expect(text).not.toContain('mermaid');
    expect(text).not.toContain('### Approvals');
    expect(text).toContain('| Trigger | `workflow_dispatch` on octo/demo by @\u200boctocat |');
  });

  it.each([
    [0, '0 ms'],
    [850.4, '850 ms'],
    [2100, '2.1 s'],
    [75_000, '1 min 15 s'],
  ])('formatSpan(%d) is %s', (ms, text) => {
    expect(formatSpan(ms)).toBe(text);
  });
});

describe('changedFileAnnotations', () => {
  it.each<[string, ChangedFile, ReturnType<typeof changedFileAnnotations>[number]]>([
    [
      'modified',
      sumFile,
      {
        message: 'The agent modified this file: 1 addition, 1 deletion.',
        properties: { title: 'agent-mux: modified (+1 −1)', file: 'src/sum.ts', startLine: 1, endLine: 1 },
      },
    ],
    [
      'added',
      { path: 'docs/new file, with: commas.md', status: 'added', firstLine: 1, additions: 12, deletions: 0 },
      {
        message: 'The agent added this file: 12 additions, 0 deletions.',
        properties: {
          title: 'agent-mux: added (+12 −0)',
          file: 'docs/new file, with: commas.md',
          startLine: 1,
          endLine: 1,
        },
      },
    ],
    [
      'renamed',
      { path: 'src/b.ts', previousPath: 'src/a.ts', status: 'renamed', firstLine: 40, additions: 2, deletions: 3 },
      {
        message: 'The agent renamed this file from src/a.ts: 2 additions, 3 deletions.',
        properties: { title: 'agent-mux: renamed (+2 −3)', file: 'src/b.ts', startLine: 40, endLine: 40 },
      },
    ],
    [
      'deleted (whole file)',
      { path: 'old.txt', status: 'deleted', firstLine: undefined, additions: 0, deletions: 7 },
      {
        message: 'The agent deleted this file: 0 additions, 7 deletions.',
        properties: { title: 'agent-mux: deleted (+0 −7)', file: 'old.txt' },
      },
    ],
    [
      'binary (line unknown)',
      { path: 'logo.png', status: 'modified', firstLine: undefined, additions: 0, deletions: 0 },
      {
        message: 'The agent modified this file: 0 additions, 0 deletions.',
        properties: { title: 'agent-mux: modified (+0 −0)', file: 'logo.png' },
      },
    ],
  ])('%s', (_, file, expected) => {
    expect(changedFileAnnotations([file])).toEqual([expected]);
  });

  it('returns nothing for no files', () => {
    expect(changedFileAnnotations([])).toEqual([]);
  });

  it.each([
    [MAX_FILE_ANNOTATIONS, MAX_FILE_ANNOTATIONS, undefined],
    [MAX_FILE_ANNOTATIONS + 1, MAX_FILE_ANNOTATIONS - 1, 2],
    [500, MAX_FILE_ANNOTATIONS - 1, 451],
  ])('with %d files: %d file notices, then a summary of %s more', (count, perFile, more) => {
    const files = Array.from({ length: count }, (_, i): ChangedFile => ({ ...sumFile, path: `f${i}.ts` }));
    const notices = changedFileAnnotations(files);
    expect(notices.length).toBeLessThanOrEqual(MAX_FILE_ANNOTATIONS);
    expect(notices.slice(0, perFile).map((n) => n.properties.file)).toEqual(files.slice(0, perFile).map((f) => f.path));
    if (more === undefined) {
      expect(notices).toHaveLength(count);
      return;
    }
    expect(notices).toHaveLength(perFile + 1);
    expect(notices.at(-1)).toEqual({
      message: `… and ${more} more files changed by the agent (see the job summary or the pull request).`,
      properties: { title: `agent-mux: ${count} files changed` },
    });
  });
});
