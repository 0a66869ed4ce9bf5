import type { AgentEvent } from '../src/core/events/index.ts';
import type { RepoRef, UpdateCheckRun } from '../src/github/github-api.ts';
import { createFakeClock } from '../src/github/pacing/clock.ts';
import { renderCheckRunOutput } from '../src/github/report/render-check-run.ts';
import { createRunReporter } from '../src/github/report/run-reporter.ts';
import { type Benchmark, fixed, int, type Target } from './bench-kit.ts';

const EVENTS = 10_000;
const RUN_MS = 10 * 60_000;
const CHECK_RUN_INTERVAL_MS = 3000;
const COMMENT_INTERVAL_MS = 5000;
/** Simulated GitHub latency per call (fake time): a write in flight holds the next one back. */
const LATENCY_MS = 250;
const T0 = Date.UTC(2026, 0, 1);
/** The reviewer's answer comes this long after the approval request; the agent is quiet meanwhile. */
const APPROVAL_WAIT_MS = 30_000;

/** A scripted agent run: text deltas, tool calls, progress, costs, one approval, then run_end. */
function scriptedEvents(): AgentEvent[] {
  const base = { runId: 'bench-run', agent: 'claude' };
  const step = (RUN_MS - APPROVAL_WAIT_MS) / EVENTS;
  let paused = 0;
  const events: AgentEvent[] = [];
  const at = () => T0 + paused + Math.round(events.length * step);
  events.push({ ...base, type: 'session_start', timestamp: at(), sessionId: 's-1', model: 'claude-sonnet-4-5' });
  let call = 0;
  let approvalAsked = false;
  while (events.length < EVENTS - 1) {
    const i = events.length;
    if (!approvalAsked && i >= EVENTS / 2) {
      approvalAsked = true;
      events.push({
        ...base,
        type: 'approval_request',
        timestamp: at(),
        approvalId: 'ap-1',
        toolName: 'bash',
        input: { command: 'npm test' },
      });
      paused = APPROVAL_WAIT_MS;
      events.push({
        ...base,
        type: 'approval_granted',
        timestamp: at(),
        approvalId: 'ap-1',
        scope: 'once',
        by: 'octocat',
      });
      continue;
    }
    if (i % 400 === 1) {
      events.push({
        ...base,
        type: 'progress',
        timestamp: at(),
        summary: `Milestone ${i / 400 + 1}: working through the plan`,
      });
    } else if (i % 50 === 2) {
      events.push({ ...base, type: 'cost', timestamp: at(), inputTokens: 1500, outputTokens: 220, usd: 0.006 });
    } else if (i % 25 === 3) {
      const toolCallId = `t${++call}`;
      events.push({ ...base, type: 'tool_call_start', timestamp: at(), toolCallId, toolName: 'read_file' });
      events.push({
        ...base,
        type: 'tool_call_ready',
        timestamp: at(),
        toolCallId,
        toolName: 'read_file',
        input: { path: `src/module-${call}.ts` },
      });
      events.push({
        ...base,
        type: 'tool_result',
        timestamp: at(),
        toolCallId,
        toolName: 'read_file',
        output: 'export const x = 1;\n'.repeat(20),
        isError: false,
        durationMs: 4,
      });
    } else {
      events.push({ ...base, type: 'text_delta', timestamp: at(), delta: `token${i % 7} ` });
    }
  }
  events.length = EVENTS - 1;
  const totals = { inputTokens: 300_000, outputTokens: 44_000, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 1.2 };
  events.push({
    ...base,
    type: 'run_end',
    timestamp: T0 + RUN_MS,
    reason: 'completed',
    durationMs: RUN_MS,
    totals,
    attempts: 1,
  });
  return events;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export const benchmark: Benchmark = {
  name: 'github-coalescing',
  title: `${int(EVENTS)} events over a simulated 10 min into one check run and one comment (fake clock, stub API)`,
  async run(log) {
    const events = scriptedEvents();
    const clock = createFakeClock(T0);
    const counts = { checkRun: 0, comment: 0, inFlightCheck: 0, inFlightComment: 0, maxCheck: 0, maxComment: 0 };
    let lastCheck: UpdateCheckRun | undefined;
    let lastBody = '';
    const latency = () => new Promise<void>((resolve) => clock.setTimeout(resolve, LATENCY_MS));
    const repo: RepoRef = { owner: 'octo', repo: 'bench' };
    const errors: unknown[] = [];
    const reporter = createRunReporter({
      api: {
        async updateCheckRun(_ref, _id, update) {
          counts.checkRun++;
          counts.maxCheck = Math.max(counts.maxCheck, ++counts.inFlightCheck);
          await latency();
          counts.inFlightCheck--;
          lastCheck = update;
        },
        async updateComment(_ref, _id, body) {
          counts.comment++;
          counts.maxComment = Math.max(counts.maxComment, ++counts.inFlightComment);
          await latency();
          counts.inFlightComment--;
          lastBody = body;
        },
      },
      repo,
      checkRunId: 1,
      commentId: 2,
      runId: 'bench-run',
      agent: 'claude',
      clock,
      checkRunIntervalMs: CHECK_RUN_INTERVAL_MS,
      commentIntervalMs: COMMENT_INTERVAL_MS,
      onError: (e) => errors.push(e),
    });

    const started = performance.now();
    for (const event of events) {
      const wait = event.timestamp - clock.now();
      if (wait > 0) clock.advance(wait);
      reporter.onEvent(event);
      await settle();
    }
    const feedMs = performance.now() - started;
    const finishing = reporter.finish({
      conclusion: 'success',
      branch: 'agent-mux/bench',
      pullRequestUrl: 'https://github.com/octo/bench/pull/1',
    });
    let finished = false;
    void finishing.then(() => {
      finished = true;
    });
    // Let the simulated latency of the final writes pass.
    while (!finished) {
      clock.advance(LATENCY_MS);
      await settle();
    }
    const totalMs = performance.now() - started;

    const simulatedS = (events.at(-1)!.timestamp - T0) / 1000;
    const checkLimit = RUN_MS / CHECK_RUN_INTERVAL_MS + 2;
    const commentLimit = RUN_MS / COMMENT_INTERVAL_MS + 2;
    const output = renderCheckRunOutput(reporter.progress);
    log(
      `${int(events.length)} events over ${fixed(simulatedS, 0)} s simulated; GitHub latency ${LATENCY_MS} ms (fake time)`,
    );
    log(
      `check-run updates ${int(counts.checkRun).padStart(5)}  (${fixed(counts.checkRun / events.length, 4)} per event, limit ${checkLimit})`,
    );
    log(
      `comment edits     ${int(counts.comment).padStart(5)}  (${fixed(counts.comment / events.length, 4)} per event, limit ${commentLimit})`,
    );
    log(`most writes in flight at once: check run ${counts.maxCheck}, comment ${counts.maxComment}`);
    log(
      `wall time ${fixed(totalMs, 0)} ms (${fixed((feedMs * 1000) / events.length, 1)} µs per event incl. one setImmediate)`,
    );
    log(
      `final sizes: check-run summary ${int(output.summary.length)}, text ${int(output.text?.length ?? 0)}, comment ${int(lastBody.length)} chars`,
    );

    const flags: string[] = [];
    if (errors.length > 0) flags.push(`${errors.length} write errors: ${String(errors[0])}`);
    if (lastCheck?.status !== 'completed' || lastCheck.conclusion !== 'success')
      flags.push('the final check run was not written');
    if (!lastBody.includes('succeeded')) flags.push('the final comment was not written');
    const targets: Target[] = [
      { label: 'check-run updates', value: counts.checkRun, op: '<=', limit: checkLimit, unit: '', digits: 0 },
      { label: 'comment edits', value: counts.comment, op: '<=', limit: commentLimit, unit: '', digits: 0 },
      { label: 'check-run writes in flight at once', value: counts.maxCheck, op: '<=', limit: 1, unit: '', digits: 0 },
      { label: 'comment writes in flight at once', value: counts.maxComment, op: '<=', limit: 1, unit: '', digits: 0 },
    ];
    return {
      targets,
      facts: [
        `${int(events.length)} events → ${int(counts.checkRun)} check-run updates (${fixed(counts.checkRun / events.length, 4)}/event), ${int(counts.comment)} comment edits (${fixed(counts.comment / events.length, 4)}/event)`,
        `${fixed((feedMs * 1000) / events.length, 1)} µs per event`,
      ],
      flags,
    };
  },
};
