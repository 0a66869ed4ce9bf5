import { describe, expect, it } from 'vitest';
import type { CheckRunAnnotation, RepoRef, UpdateCheckRun } from '../../../src/github/github-api.ts';
import { createFakeClock, type FakeClock } from '../../../src/github/pacing/clock.ts';
import { WriteBudget } from '../../../src/github/pacing/write-budget.ts';
import { renderAnnotations } from '../../../src/github/report/render-check-run.ts';
import { parseRunMarker } from '../../../src/github/report/render-tracking-comment.ts';
import { createRunReporter } from '../../../src/github/report/run-reporter.ts';
import { eventMaker, T0, workingEvents } from './scenarios.ts';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const repo: RepoRef = { owner: 'octo', repo: 'demo' };

/** An in-memory GitHub recording every call; `failures` makes the next calls of a kind reject. */
function stubApi(clock: { now(): number }) {
  const checkRuns: { at: number; id: number; update: UpdateCheckRun }[] = [];
  const comments: { at: number; id: number; body: string }[] = [];
  const failures = { checkRun: 0, comment: 0 };
  let inFlight = 0;
  let maxInFlight = 0;
  const track = async (fn: () => void) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await settle();
    inFlight--;
    fn();
  };
  return {
    checkRuns,
    comments,
    failures,
    get maxInFlight() {
      return maxInFlight;
    },
    api: {
      async updateCheckRun(ref: RepoRef, id: number, update: UpdateCheckRun) {
        expect(ref).toEqual(repo);
        await track(() => {
          if (failures.checkRun > 0) {
            failures.checkRun--;
            throw new Error('check run update failed');
          }
          checkRuns.push({ at: clock.now(), id, update });
        });
      },
      async updateComment(ref: RepoRef, id: number, body: string) {
        expect(ref).toEqual(repo);
        await track(() => {
          if (failures.comment > 0) {
            failures.comment--;
            throw new Error('comment edit failed');
          }
          comments.push({ at: clock.now(), id, body });
        });
      },
    },
  };
}

function setup(options: { finalAttempts?: number; budget?: (clock: FakeClock) => WriteBudget } = {}) {
  const { budget, ...rest } = options;
  const clock = createFakeClock(T0);
  const liveWrites = budget?.(clock);
  const stub = stubApi(clock);
  const errors: unknown[] = [];
  const reporter = createRunReporter({
    api: stub.api,
    repo,
    checkRunId: 99,
    commentId: 7,
    runId: 'run-42',
    agent: 'claude',
    checkRunUrl: 'https://github.com/octo/demo/runs/99',
    clock,
    onError: (e) => errors.push(e),
    ...(liveWrites ? { liveWrites } : {}),
    ...rest,
  });
  return { clock, stub, errors, reporter, liveWrites };
}

describe('createRunReporter', () => {
  it('while an approval waits and nothing happens, refreshes the check run every 15 s (its elapsed time moves), and stops once decided', async () => {
    const { clock, stub, reporter } = setup();
    const m = eventMaker();
    reporter.onEvent(m.e('session_start', { sessionId: 's', model: 'opus' }, 0));
    reporter.onEvent(
      m.e('approval_request', { approvalId: 'ap-1', toolName: 'bash', input: { command: 'ls' }, reason: 'ls' }, 0),
    );
    await settle();
    await settle();
    const before = stub.checkRuns.length;
    const elapsed = () =>
      /\| Elapsed \| ([^|]+) \|/.exec(stub.checkRuns.at(-1)?.update.output?.summary ?? '')?.[1]?.trim();
    for (let i = 0; i < 3; i++) {
      clock.advance(15_000);
      await settle();
      await settle();
    }
    // The write the approval itself asked for (3 s after the first), then one every 15 s.
    expect(stub.checkRuns.slice(before)).toHaveLength(4);
    expect(elapsed()).toBe('45 s');
    reporter.onEvent(m.e('approval_granted', { approvalId: 'ap-1', scope: 'once', by: 'bob' }, 46_000));
    await settle();
    clock.advance(3_000);
    await settle();
    await settle();
    const afterDecision = stub.checkRuns.length;
    clock.advance(60_000);
    await settle();
    await settle();
    expect(stub.checkRuns.length).toBe(afterDecision);
  });

  it('writes at once, then at most once per interval each', async () => {
    const { clock, stub, reporter } = setup();
    const m = eventMaker();
    reporter.onEvent(m.e('session_start', { sessionId: 's', model: 'opus' }, 0));
    await settle();
    await settle();
    expect(stub.checkRuns).toHaveLength(1);
    expect(stub.comments).toHaveLength(1);
    expect(stub.checkRuns[0]!.update).toMatchObject({
      status: 'in_progress',
      output: { title: 'claude: running — 0 steps' },
    });
    expect(parseRunMarker(stub.comments[0]!.body)).toBe('run-42');

    for (let i = 1; i <= 100; i++) {
      clock.advance(50);
      reporter.onEvent(m.e('progress', { summary: `step ${i}` }, i * 50));
      await settle();
    }
    // 5 s of events: check run at 0 and 3 s; comment at 0 and 5 s.
    await settle();
    expect(stub.checkRuns.map((c) => c.at - T0)).toEqual([0, 3000]);
    expect(stub.comments.map((c) => c.at - T0)).toEqual([0, 5000]);
    clock.advance(5000);
    await settle();
    await settle();
    expect(stub.checkRuns).toHaveLength(3);
    expect(stub.checkRuns.at(-1)!.update.output!.title).toBe('claude: running — 100 steps');
    expect(stub.comments.at(-1)!.body).toContain('- [ ] step 100');
    expect(stub.maxInFlight).toBe(2); // one check-run update and one comment edit, never two of a kind
  });

  it('with a write budget shared by 5 runs: live updates stretch to 22.5 s and the final write waits for no queued one', async () => {
    const { clock, stub, reporter, liveWrites } = setup({
      budget: (fake) => new WriteBudget({ clock: fake, liveSpacingMs: 1500 }),
    });
    const budget = liveWrites!;
    const others = Array.from({ length: 4 }, () => budget.run());
    const release = budget.run();
    const m = eventMaker();
    for (let i = 1; i <= 600; i++) {
      clock.advance(100);
      reporter.onEvent(m.e('progress', { summary: `step ${i}` }, i * 100));
      await settle();
      await settle();
    }
    // 60 s of events: the check run at 0, 22.5, 45 s; the comment 1.5 s after each (the live spacing).
    expect(stub.checkRuns.map((c) => c.at - T0)).toEqual([100, 22_600, 45_100]);
    expect(stub.comments.map((c) => c.at - T0)).toEqual([1600, 24_100, 46_600]);
    // A live update waiting for its slot when the run finishes is dropped; the final writes go at once.
    let openUrgent: () => void = () => {};
    const urgent = budget.urgent(() => new Promise<void>((resolve) => (openUrgent = resolve)));
    reporter.onEvent(m.e('progress', { summary: 'last step' }, 60_100));
    clock.advance(10_000);
    await settle();
    await settle();
    expect(stub.checkRuns).toHaveLength(3); // due at 67.6 s, but held behind the urgent write
    const finished = reporter.finish({ conclusion: 'success' });
    await settle();
    await finished;
    expect(stub.checkRuns).toHaveLength(4);
    expect(stub.checkRuns.at(-1)!.update).toMatchObject({ status: 'completed', conclusion: 'success' });
    openUrgent();
    await urgent;
    clock.advance(60_000);
    await settle();
    await settle();
    expect(stub.checkRuns).toHaveLength(4);
    expect(stub.comments.at(-1)!.body).not.toBe(stub.comments.at(-2)!.body);
    for (const done of [...others, release]) done();
    expect(budget.runs).toBe(0);
  });

  it('writes only when the rendering changed', async () => {
    const { clock, stub, reporter } = setup();
    const m = eventMaker();
    for (const event of workingEvents()) reporter.onEvent(event);
    clock.advance(10_000);
    await settle();
    await settle();
    const [checks, comments] = [stub.checkRuns.length, stub.comments.length];
    reporter.onEvent(m.e('debug', { message: 'nothing to show' }, 3900));
    reporter.onEvent(m.e('thinking_delta', { delta: 'hmm' }, 3900));
    clock.advance(10_000);
    await settle();
    await settle();
    expect([stub.checkRuns.length, stub.comments.length]).toEqual([checks, comments]);
    // A log line changes the check run but not the comment.
    reporter.onEvent(m.e('log', { source: 'stderr', line: 'warning' }, 3900));
    clock.advance(10_000);
    await settle();
    await settle();
    expect([stub.checkRuns.length, stub.comments.length]).toEqual([checks + 1, comments]);
  });

  it('notes reach the check run log', async () => {
    const { clock, stub, reporter } = setup();
    for (const event of workingEvents()) reporter.onEvent(event);
    clock.advance(4000);
    reporter.note('approval asked on GitHub');
    expect(reporter.progress.log.last).toBe('[00:04] approval asked on GitHub');
    clock.advance(4000);
    await settle();
    await settle();
    expect(stub.checkRuns.at(-1)!.update.output!.text).toContain('[00:04] approval asked on GitHub');
  });

  it('finish writes the completed check run with annotations in batches of 50, and the final comment', async () => {
    const { clock, stub, reporter } = setup();
    for (const event of workingEvents()) reporter.onEvent(event);
    await settle();
    clock.advance(1000);
    const files = Array.from({ length: 120 }, (_, i) => ({
      path: `f${i}.ts`,
      additions: 1,
      deletions: 0,
      status: 'added',
    }));
    const annotations: CheckRunAnnotation[] = renderAnnotations(files);
    const finishing = reporter.finish({
      conclusion: 'success',
      branch: 'agent-mux/fix',
      pullRequestUrl: 'https://github.com/octo/demo/pull/12',
      annotations,
    });
    expect(reporter.finish({ conclusion: 'failure' })).toBe(finishing);
    await finishing;
    const finals = stub.checkRuns.slice(1);
    expect(finals.map((c) => c.update.output?.annotations?.length)).toEqual([50, 50, 20]);
    expect(finals[0]!.update).toMatchObject({
      status: 'completed',
      conclusion: 'success',
      completedAt: new Date(T0 + 1000).toISOString(),
      output: { title: 'claude: succeeded' },
    });
    expect(finals[1]!.update.status).toBeUndefined();
    expect(finals.flatMap((c) => c.update.output!.annotations!)).toEqual(annotations);
    const last = stub.comments.at(-1)!.body;
    expect(last).toContain('### ✅ claude succeeded');
    expect(last).toContain('| Pull request | [\\#12](https://github.com/octo/demo/pull/12) |');
    expect(stub.comments.every((c) => c.id === 7)).toBe(true);
    expect(stub.checkRuns.every((c) => c.id === 99)).toBe(true);

    // Nothing more after finish.
    const counts = [stub.checkRuns.length, stub.comments.length];
    reporter.onEvent(eventMaker().e('progress', { summary: 'late' }, 9000));
    reporter.note('late');
    clock.advance(60_000);
    await settle();
    expect([stub.checkRuns.length, stub.comments.length]).toEqual(counts);
  });

  it('finish writes the final state even with nothing pending and no events at all', async () => {
    const { stub, reporter } = setup();
    await reporter.finish({ conclusion: 'cancelled', reason: 'cancelled before it started' });
    expect(stub.checkRuns).toHaveLength(1);
    expect(stub.checkRuns[0]!.update).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
    expect(stub.checkRuns[0]!.update.output!.annotations).toBeUndefined();
    expect(stub.comments[0]!.body).toContain('**Reason:** cancelled before it started');
  });

  it('finish waits for the writes in flight and never overlaps them', async () => {
    const { stub, reporter } = setup();
    reporter.onEvent(eventMaker().e('progress', { summary: 'one' }, 0));
    // The first writes are in flight now.
    await reporter.finish({ conclusion: 'success' });
    expect(stub.maxInFlight).toBe(2);
    expect(stub.checkRuns.map((c) => c.update.status)).toEqual(['in_progress', 'completed']);
    expect(stub.comments).toHaveLength(2);
  });

  it('failed writes go to onError: live ones are retried on the next tick, final ones up to finalAttempts', async () => {
    const { clock, stub, errors, reporter } = setup({ finalAttempts: 3 });
    stub.failures.checkRun = 1;
    reporter.onEvent(eventMaker().e('progress', { summary: 'one' }, 0));
    await settle();
    await settle();
    expect(errors).toHaveLength(1);
    expect(stub.checkRuns).toHaveLength(0);
    clock.advance(3000);
    await settle();
    await settle();
    expect(stub.checkRuns).toHaveLength(1);

    stub.failures.checkRun = 2;
    stub.failures.comment = 5;
    await reporter.finish({ conclusion: 'failure', reason: 'boom' });
    expect(stub.checkRuns.at(-1)!.update.conclusion).toBe('failure');
    const count = (text: string) => errors.map(String).filter((e) => e === `Error: ${text}`).length;
    // 1 live failure + 2 failed final attempts; the comment failed all 3 final attempts.
    expect([count('check run update failed'), count('comment edit failed')]).toEqual([3, 3]);
    expect(stub.comments.at(-1)?.body ?? '').not.toContain('boom');
  });
});
