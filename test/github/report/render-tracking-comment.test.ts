import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FinishInfo } from '../../../src/github/report/finish-info.ts';
import { InvalidRunIdError } from '../../../src/github/report/invalid-run-id-error.ts';
import {
  COMMENT_LIMIT,
  parseRunMarker,
  renderTrackingComment,
  runMarker,
} from '../../../src/github/report/render-tracking-comment.ts';
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

const checkRunUrl = 'https://github.com/octo/demo/runs/99';

describe('renderTrackingComment', () => {
  it.each([
    ['running-approval', approvalEvents, undefined],
    [
      'succeeded-pr',
      successEvents,
      { conclusion: 'success', branch: 'agent-mux/fix-sum', pullRequestUrl: 'https://github.com/octo/demo/pull/12' },
    ],
    ['failed-error', failureEvents, { conclusion: 'failure', reason: 'the agent crashed (exit code 1)' }],
    ['cancelled', cancelledEvents, { conclusion: 'cancelled', reason: 'cancelled by @octocat' }],
    ['no-changes', successEvents, { conclusion: 'success', noChanges: true }],
  ] as [string, () => ReturnType<typeof workingEvents>, FinishInfo | undefined][])(
    'golden: %s',
    (name, events, finished) => {
      const body = renderTrackingComment(progressOf(events()), {
        runId: 'run-42',
        checkRunUrl,
        ...(finished ? { finished } : {}),
      });
      expectGolden(`${name}.comment.md`, body);
    },
  );

  it('starts with the marker that front ends recognise', () => {
    const body = renderTrackingComment(progressOf(workingEvents()), { runId: 'run-42' });
    expect(body.startsWith('<!-- agent-mux:run:run-42 -->\n')).toBe(true);
    expect(parseRunMarker(body)).toBe('run-42');
    expect(parseRunMarker(`quoted:\n${body}`)).toBeUndefined();
    expect(body).not.toContain('Check run');
  });

  it.each(['', 'a -->', 'x'.repeat(129), 'a b'])('rejects run id %j', (runId) => {
    expect(() => runMarker(runId)).toThrow(InvalidRunIdError);
    try {
      runMarker(runId);
    } catch (error) {
      expect(InvalidRunIdError.isInstance(error)).toBe(true);
    }
  });

  it('an agent cannot forge a marker or mention people', () => {
    const m = eventMaker();
    const progress = progressOf([m.e('progress', { summary: '<!-- agent-mux:run:evil --> ping @octocat' })]);
    const body = renderTrackingComment(progress, { runId: 'r1' });
    expect(body.match(/<!--/g)).toHaveLength(1);
    expect(body).not.toMatch(/@octocat/);
  });

  it('shows only the newest 40 checklist items', () => {
    const m = eventMaker();
    const progress = new RunProgress({ agent: 'claude' });
    for (let i = 0; i < 100; i++) progress.apply(m.e('progress', { summary: `step ${i}` }));
    const body = renderTrackingComment(progress, { runId: 'r1' });
    expect(body).toContain('- [x] _… 60 earlier steps_');
    expect(body).toContain('- [x] step 60\n');
    expect(body).not.toContain('step 59\n');
    expect(body).toContain('- [ ] step 99\n');
    expect(body).toContain('**Now:** step 99');
  });

  it('property: never longer than 65,536 characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30_000, size: 'large' }), { minLength: 1, maxLength: 30 }),
        (texts) => {
          const m = eventMaker();
          const progress = new RunProgress({ agent: texts.join('').slice(0, 60_000) || 'a' });
          for (const [i, text] of texts.entries()) {
            progress.apply(m.e('progress', { summary: text }));
            progress.apply(m.e('approval_request', { approvalId: `a${i}`, toolName: text, input: text, reason: text }));
          }
          const reason = texts.join(' ');
          for (const finished of [
            undefined,
            { conclusion: 'failure', reason, branch: reason, pullRequestUrl: reason } as const,
          ]) {
            const body = renderTrackingComment(progress, { runId: 'r', ...(finished ? { finished } : {}) });
            expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
            expect(parseRunMarker(body)).toBe('r');
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
