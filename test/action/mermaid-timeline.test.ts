import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_TASK_NAME,
  MAX_TIMELINE_TASKS,
  renderMermaidTimeline,
  sanitizeTaskName,
} from '../../src/action/mermaid-timeline.ts';
import type { AgentEvent } from '../../src/core/events/index.ts';
import { RunProgress } from '../../src/github/report/run-progress.ts';
import { approvalEvents, eventMaker, failureEvents, progressOf, successEvents } from '../github/report/scenarios.ts';

/** The task line grammar the renderer promises (names: no `:` `#` `;` `%`, no line breaks). */
const TASK_LINE = /^ {4}(?<name>[^:#;%\r\n\u2028\u2029]+?) :(?:(?<tag>done|active|crit), )?(?<start>\d+), (?<end>\d+)$/;
const HEADER = ['gantt', '    dateFormat x', '    axisFormat %M:%S', '    todayMarker off'];
const SECTION_LINE = /^ {4}section (Run|Agent|Tools|Approvals|Not shown)$/;
/** Line starts Mermaid's gantt lexer would read as a statement rather than a task name. */
const STATEMENT =
  /^\s*(?:gantt|dateformat|inclusiveenddates|topaxis|axisformat|tickinterval|includes|excludes|todaymarker|weekday|weekend|title|acctitle|accdescr|section|click|href|call|\d{4}-\d{2}-\d{2})/i;

function taskLines(chart: string) {
  return chart
    .split('\n')
    .filter((line) => !HEADER.includes(line) && !SECTION_LINE.test(line))
    .map((line) => {
      const match = TASK_LINE.exec(line);
      if (!match?.groups) throw new Error(`not a task line: ${JSON.stringify(line)}`);
      const { name = '', tag, start = '', end = '' } = match.groups;
      return { name, tag, start: Number(start), end: Number(end) };
    });
}

function sections(chart: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  let current = '';
  for (const line of chart.split('\n').slice(HEADER.length)) {
    const section = SECTION_LINE.exec(line);
    if (section) {
      current = section[1]!;
      out[current] = [];
    } else out[current]!.push(line.trim());
  }
  return out;
}

describe('renderMermaidTimeline', () => {
  it('draws a finished run: the run, progress steps, tool calls and the wait for approval', () => {
    expect(renderMermaidTimeline(progressOf(successEvents()))).toBe(
      [
        ...HEADER,
        '    section Run',
        '    claude run :done, 0, 75000',
        '    section Agent',
        '    Reproduce the failure :done, 1500, 3000',
        '    Fix `sum` in src/sum.ts :done, 3000, 4000',
        '    Run the tests :done, 4000, 75000',
        '    section Tools',
        '    read_file src/sum.ts :done, 2000, 2200',
        '    write_file src/sum.ts :done, 3500, 3700',
        '    bash npm test -- sum :done, 4100, 22100',
        '    section Approvals',
        '    ap-7 bash (approved) :done, 4300, 20000',
      ].join('\n'),
    );
  });

  it('marks failures crit and ends what was still open at the last event', () => {
    const failed = sections(renderMermaidTimeline(progressOf(failureEvents())));
    expect(failed.Run).toEqual(['claude run :crit, 0, 9200']);
    expect(failed.Tools).toContain('bash npm test :crit, 5000, 6000');
    expect(failed.Agent).toContain('Fix `sum` in src/sum.ts :crit, 3000, 9200');

    const waiting = sections(renderMermaidTimeline(progressOf(approvalEvents())));
    expect(waiting.Run).toEqual(['claude run :active, 0, 4300']);
    expect(waiting.Tools).toContain('bash npm test -- sum :active, 4100, 4300');
    expect(waiting.Approvals).toEqual(['ap-7 bash (pending) :active, 4300, 4300']);
  });

  it('shows approvals the run ended first as denied, ending at run_end', () => {
    const m = eventMaker();
    const progress = progressOf([
      ...approvalEvents(),
      m.e(
        'run_end',
        {
          reason: 'aborted',
          durationMs: 9000,
          attempts: 1,
          totals: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 },
        },
        9000,
      ),
    ]);
    expect(sections(renderMermaidTimeline(progress)).Approvals).toEqual(['ap-7 bash (denied) :crit, 4300, 9000']);
  });

  it('has no chart without events, and only the run bar without steps', () => {
    expect(renderMermaidTimeline(new RunProgress({ agent: 'claude' }))).toBe('');
    const m = eventMaker();
    const quiet = progressOf([
      m.e('session_start', { sessionId: 's', cwd: '/w' }, 0),
      m.e('text_delta', { delta: 'hi' }, 2500),
    ]);
    expect(renderMermaidTimeline(quiet)).toBe(
      [...HEADER, '    section Run', '    claude run :active, 0, 2500'].join('\n'),
    );
  });

  it(`keeps the first and last of long runs within ${MAX_TIMELINE_TASKS} tasks and counts the rest`, () => {
    const m = eventMaker();
    const events: AgentEvent[] = [];
    for (let i = 0; i < 300; i++) {
      events.push(m.e('tool_call_start', { toolCallId: `t${i}`, toolName: `tool${i}` }, i * 1000));
      events.push(m.e('tool_result', { toolCallId: `t${i}`, output: '', isError: false }, i * 1000 + 500));
    }
    const chart = renderMermaidTimeline(progressOf(events));
    const tasks = taskLines(chart);
    expect(tasks).toHaveLength(MAX_TIMELINE_TASKS);
    const tools = sections(chart).Tools!;
    expect(tools[0]).toBe('tool0 :done, 0, 500');
    expect(tools.at(-1)).toBe('tool299 :done, 299000, 299500');
    expect(tools).toContain('tool48 :done, 48000, 48500');
    expect(tools).not.toContain('tool49 :done, 49000, 49500');
    expect(sections(chart)['Not shown']).toEqual(['… 202 more steps :49000, 250500']);
  });
});

describe('sanitizeTaskName', () => {
  it.each([
    ['plain', 'read_file src/a.ts', 'read_file src/a.ts'],
    ['colon', 'Step 1: reproduce', 'Step 1： reproduce'],
    ['hash, semicolon, percent', 'fix #12; 50% done', 'fix ＃12； 50％ done'],
    ['newlines and tabs', 'one\ntwo\r\n\tthree\u2028four', 'one two three four'],
    ['statement keyword', 'section Evil', '▸ section Evil'],
    ['keyword in any case', 'ClIcK here', '▸ ClIcK here'],
    ['date at the start', '2024-01-02 release', '▸ 2024-01-02 release'],
    ['directive', '%%{init: {}}%%', '％％{init： {}}％％'],
    ['blank', ' \n\t ', 'step'],
    ['long', 'x'.repeat(500), `${'x'.repeat(MAX_TASK_NAME - 1)}…`],
  ])('%s', (_, input, expected) => {
    expect(sanitizeTaskName(input)).toBe(expected);
  });

  it('always yields a task name the gantt lexer reads as one name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const name = sanitizeTaskName(text);
        expect(name).toMatch(/^[^:#;%\r\n\u2028\u2029\s](?:[^:#;%\r\n\u2028\u2029]*[^:#;%\r\n\u2028\u2029\s])?$/);
        expect(name).not.toMatch(STATEMENT);
        expect(name.length).toBeLessThanOrEqual(MAX_TASK_NAME);
      }),
    );
  });
});

describe('renderMermaidTimeline with any titles', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 150 }),
    fc.constantFrom('section x', 'title: y', 'click a call b()', '%%{init}%%', '#35;', 'a\nsection b', '2024-01-01'),
  );
  const item = fc.oneof(
    fc.record({ kind: fc.constant('progress' as const), title: text, gap: fc.nat(5000) }),
    fc.record({
      kind: fc.constant('tool' as const),
      title: text,
      target: text,
      gap: fc.nat(5000),
      took: fc.option(fc.nat(5000)),
      failed: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('approval' as const),
      title: text,
      target: text,
      gap: fc.nat(5000),
      took: fc.option(fc.nat(5000)),
      failed: fc.boolean(),
    }),
  );

  it('renders every task as a well-formed gantt task line', () => {
    fc.assert(
      fc.property(text, fc.array(item, { maxLength: 140 }), fc.boolean(), (agent, items, ended) => {
        const m = eventMaker('run-1', 'agent');
        const progress = new RunProgress({ agent });
        let at = 0;
        progress.apply(m.e('session_start', { sessionId: 's', cwd: '/w' }, at));
        items.forEach((it, i) => {
          at += it.gap;
          if (it.kind === 'progress') {
            progress.apply(m.e('progress', { summary: it.title }, at));
          } else if (it.kind === 'tool') {
            const toolCallId = `call-${i}`;
            progress.apply(m.e('tool_call_start', { toolCallId, toolName: it.title }, at));
            progress.apply(m.e('tool_call_ready', { toolCallId, toolName: it.title, input: { path: it.target } }, at));
            if (it.took !== null) {
              at += it.took;
              progress.apply(m.e('tool_result', { toolCallId, output: '', isError: it.failed }, at));
            }
          } else {
            const approvalId = `${it.target}-${i}`;
            progress.apply(m.e('approval_request', { approvalId, toolName: it.title, input: it.target }, at));
            if (it.took !== null) {
              at += it.took;
              progress.apply(
                it.failed
                  ? m.e('approval_denied', { approvalId, reason: it.title }, at)
                  : m.e('approval_granted', { approvalId, scope: 'once' }, at),
              );
            }
          }
        });
        if (ended) {
          progress.apply(
            m.e(
              'run_end',
              {
                reason: 'completed',
                durationMs: at,
                attempts: 1,
                totals: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0 },
              },
              at,
            ),
          );
        }
        const chart = renderMermaidTimeline(progress);
        expect(chart.split('\n').slice(0, HEADER.length)).toEqual(HEADER);
        const tasks = taskLines(chart);
        expect(tasks.length).toBeGreaterThan(0);
        expect(tasks.length).toBeLessThanOrEqual(MAX_TIMELINE_TASKS);
        expect(tasks.length).toBe(Math.min(MAX_TIMELINE_TASKS, 1 + progress.steps.length + progress.approvals.length));
        for (const task of tasks) {
          expect(task.name).not.toMatch(STATEMENT);
          expect(task.name).toBe(task.name.trim());
          expect(task.start).toBeLessThanOrEqual(task.end);
          expect(task.end).toBeLessThanOrEqual(at);
        }
        // No line can close the Markdown fence around the chart.
        for (const line of chart.split('\n')) expect(line).not.toMatch(/^ {0,3}(`{3,}|~{3,})/);
      }),
      { numRuns: 200 },
    );
  });
});
