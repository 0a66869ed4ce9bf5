import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FinishInfo } from '../../../src/github/report/finish-info.ts';
import {
  ANNOTATIONS_PER_REQUEST,
  chunkAnnotations,
  renderAnnotations,
  renderCheckRunOutput,
} from '../../../src/github/report/render-check-run.ts';
import { RunProgress } from '../../../src/github/report/run-progress.ts';
import { expectGolden } from './golden.ts';
import {
  approvalEvents,
  cancelledEvents,
  eventMaker,
  failureEvents,
  progressOf,
  successEvents,
  workingEvents,
} from './scenarios.ts';

const LIMIT = 65_535;
const asMarkdown = (o: { title: string; summary: string; text?: string }) =>
  `# ${o.title}\n\n${o.summary}\n\n---\n\n${o.text ?? ''}\n`;

describe('renderCheckRunOutput', () => {
  it.each([
    ['running-approval', approvalEvents, undefined],
    [
      'succeeded-pr',
      successEvents,
      { conclusion: 'success', branch: 'agent-mux/fix-sum', pullRequestUrl: 'https://github.com/octo/demo/pull/12' },
    ],
    ['failed-error', failureEvents, { conclusion: 'failure', reason: 'the agent crashed (exit code 1)' }],
    ['cancelled', cancelledEvents, { conclusion: 'cancelled', reason: 'cancelled by @octocat' }],
  ] as [string, () => ReturnType<typeof workingEvents>, FinishInfo | undefined][])(
    'golden: %s',
    (name, events, finished) => {
      const output = renderCheckRunOutput(progressOf(events()), finished ? { finished } : {});
      expectGolden(`${name}.check-run.md`, asMarkdown(output));
    },
  );

  it.each([
    [[], undefined, 'claude: queued — 0 steps'],
    [workingEvents(), undefined, 'claude: running — 4 steps'],
    [approvalEvents(), undefined, 'claude: waiting for approval — 6 steps'],
    [successEvents(), { conclusion: 'success' }, 'claude: succeeded'],
    [failureEvents(), { conclusion: 'timed_out' }, 'claude: timed out'],
  ] as [ReturnType<typeof workingEvents>, FinishInfo | undefined, string][])(
    'title %#: %s',
    (events, finished, title) => {
      expect(renderCheckRunOutput(progressOf(events), finished ? { finished } : {}).title).toBe(title);
    },
  );

  it('says so when there is no activity yet', () => {
    expect(renderCheckRunOutput(new RunProgress({ agent: 'pi' })).text).toBe('_No activity yet._');
  });

  it('shows the message being streamed as the last log line', () => {
    const m = eventMaker();
    const progress = progressOf([...workingEvents(), m.e('text_delta', { delta: 'Now running the tests' }, 5000)]);
    expect(renderCheckRunOutput(progress).text).toMatch(/\[00:05\] agent: Now running the tests\n```$/);
  });

  it('a log line full of backticks cannot close the fence', () => {
    const m = eventMaker();
    const progress = progressOf([m.e('log', { source: 'stdout', line: 'before ````` after ``` end' })]);
    const text = renderCheckRunOutput(progress).text!;
    const fence = text.split('\n')[0]!;
    expect(fence).toBe('``````');
    expect(text.endsWith(`\n${fence}`)).toBe(true);
    expect(text.slice(fence.length, -fence.length)).not.toContain(fence);
  });

  it('escapes agent-controlled text in the summary', () => {
    const m = eventMaker();
    const progress = progressOf([
      m.e('session_start', { sessionId: 's', model: '<img src=x> @everyone' }),
      m.e('approval_request', { approvalId: 'a|1', toolName: 'bash', input: { command: 'echo `a|b`' } }),
    ]);
    const { summary } = renderCheckRunOutput(progress);
    expect(summary).toContain('| Model | &lt;img src=x&gt; @\u200beveryone |');
    expect(summary).toContain('| `a\\|1` | `bash` | ``{"command":"echo `a\\|b`"}`` | pending |  |');
  });

  it('property: summary and text stay within 65,535 characters whatever the input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 20_000, size: 'large' }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 400 }),
        (texts, approvals) => {
          const m = eventMaker();
          const progress = new RunProgress({ agent: texts[0]!.slice(0, 5000) || 'x', model: texts.at(-1) });
          for (const [i, text] of texts.entries()) {
            progress.apply(m.e('log', { source: 'stdout', line: text }));
            progress.apply(m.e('progress', { summary: text }));
            progress.apply(m.e('file_output', { fileName: 'f', path: `${text.slice(0, 3000)}/${i}` }));
            progress.apply(m.e('error', { code: 'internal', message: text, recoverable: true }));
          }
          for (let i = 0; i < approvals; i++) {
            progress.apply(
              m.e('approval_request', {
                approvalId: `${i}${texts[i % texts.length]}`,
                toolName: '`'.repeat(300),
                input: texts,
              }),
            );
          }
          progress.apply(m.e('text_delta', { delta: texts.join('') }));
          const reason = texts.join('\n');
          for (const finished of [undefined, { conclusion: 'failure', reason, branch: reason } as const]) {
            const output = renderCheckRunOutput(progress, finished ? { finished } : {});
            expect(output.summary.length).toBeLessThanOrEqual(LIMIT);
            expect(output.text!.length).toBeLessThanOrEqual(LIMIT);
            const fence = output.text!.split('\n')[0]!;
            expect(output.text!.endsWith(fence)).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the summary within the limit with huge inputs', () => {
    const m = eventMaker();
    const huge = 'x|`@<'.repeat(30_000);
    const progress = new RunProgress({ agent: huge, model: huge });
    for (let i = 0; i < 120; i++) {
      progress.apply(m.e('approval_request', { approvalId: `${i}${huge}`, toolName: huge, input: huge, reason: huge }));
      progress.apply(m.e('approval_denied', { approvalId: `${i}${huge}`, reason: huge, by: huge }));
      progress.apply(m.e('file_output', { fileName: 'f', path: `${i}/${huge}` }));
    }
    const finished = { conclusion: 'failure', reason: huge, branch: huge, pullRequestUrl: huge } as const;
    for (const extra of [{}, { finished }]) {
      const output = renderCheckRunOutput(progress, extra);
      expect(output.summary.length).toBeLessThanOrEqual(LIMIT);
      expect(output.text!.length).toBeLessThanOrEqual(LIMIT);
      expect(output.title.length).toBeLessThanOrEqual(200);
    }
  });

  it('keeps the text within the limit with a long log of long backtick runs', () => {
    const m = eventMaker();
    const progress = new RunProgress({ agent: 'claude' });
    for (let i = 0; i < 2000; i++) progress.apply(m.e('log', { source: 'stdout', line: '`'.repeat(480) }));
    const text = renderCheckRunOutput(progress).text!;
    expect(text.length).toBeLessThanOrEqual(LIMIT);
    expect(text.startsWith(`${'`'.repeat(481)}\n… `)).toBe(true);
    expect(text.endsWith(`\n${'`'.repeat(481)}`)).toBe(true);
  });
});

describe('renderAnnotations', () => {
  it('makes one notice per file at its first changed line', () => {
    expect(
      renderAnnotations([
        { path: 'src/sum.ts', firstLine: 3, additions: 1, deletions: 1, status: 'modified' },
        { path: 'README.md', additions: 10, deletions: 0, status: 'added' },
      ]),
    ).toEqual([
      {
        path: 'src/sum.ts',
        startLine: 3,
        endLine: 3,
        level: 'notice',
        title: 'modified: +1 −1',
        message: 'Changed by the agent (modified): 1 addition, 1 deletion.',
      },
      {
        path: 'README.md',
        startLine: 1,
        endLine: 1,
        level: 'notice',
        title: 'added: +10 −0',
        message: 'Changed by the agent (added): 10 additions, 0 deletions.',
      },
    ]);
  });

  it.each([
    [0, []],
    [1, [1]],
    [50, [50]],
    [51, [50, 1]],
    [120, [50, 50, 20]],
  ])('chunks %d annotations into batches of 50', (count, sizes) => {
    const chunks = chunkAnnotations(Array.from({ length: count }, (_, i) => i));
    expect(chunks.map((c) => c.length)).toEqual(sizes);
    expect(chunks.flat()).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(ANNOTATIONS_PER_REQUEST).toBe(50);
  });
});
