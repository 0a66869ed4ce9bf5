import { describe, expect, it } from 'vitest';
import { codexPlan } from '../../../src/adapters/agents/codex/codex-plan.ts';
import { codexTranslator } from '../../../src/adapters/agents/codex/codex-translator.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import { renderCheckRunOutput } from '../../../src/github/report/render-check-run.ts';
import { renderTrackingComment } from '../../../src/github/report/render-tracking-comment.ts';
import { RunProgress } from '../../../src/github/report/run-progress.ts';
import { expectGolden } from './golden.ts';
import { eventMaker } from './scenarios.ts';

const zeroTotals = { inputTokens: 240, outputTokens: 48, cacheReadTokens: 80, cacheWriteTokens: 0, usd: 0 };

// `codex exec --json` records shaped like the recorded tool case (test/fixtures/streams/codex/tool.jsonl),
// with the command failing in the read-only sandbox the way the run reported it.
const records = [
  { type: 'thread.started', thread_id: 'thread-1' },
  { type: 'turn.started' },
  {
    type: 'item.started',
    item: {
      id: 'item_0',
      type: 'command_execution',
      command: "/bin/bash -lc 'touch x'",
      aggregated_output: '',
      exit_code: null,
      status: 'in_progress',
    },
  },
  {
    type: 'item.completed',
    item: {
      id: 'item_0',
      type: 'command_execution',
      command: "/bin/bash -lc 'touch x'",
      aggregated_output: "touch: cannot touch 'x': Read-only file system\n",
      exit_code: 1,
      status: 'failed',
    },
  },
  {
    type: 'item.completed',
    item: { id: 'item_1', type: 'agent_message', text: 'I could not create x: the file system is read-only.' },
  },
  { type: 'turn.completed', usage: { input_tokens: 240, cached_input_tokens: 80, output_tokens: 48 } },
];

/** The run as the core delivers it: the plan's notice first, then the translated stream, then `run_end`. */
function readOnlyRun(): AgentEvent[] {
  const m = eventMaker('run-7', 'codex');
  const plan = codexPlan({
    request: { prompt: 'touch x', cwd: '/work' },
    runId: 'run-7',
    taskId: 'run-7',
    leaseToken: '',
    leaseEpoch: 0,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: '/work',
    env: {},
    debug: false,
    policy: { default: 'ask' },
  });
  const events: AgentEvent[] = (plan.notices ?? []).map((notice) => m.e('notice', notice, 0));
  const state = codexTranslator.init({ debug: false });
  records.forEach((value, i) => {
    for (const draft of codexTranslator.translate({ kind: 'json', value }, state))
      events.push({
        ...draft,
        runId: 'run-7',
        agent: 'codex',
        timestamp: events[0]!.timestamp + 500 * (i + 1),
      } as AgentEvent);
  });
  events.push(m.e('run_end', { reason: 'completed', durationMs: 4000, totals: zeroTotals, attempts: 1 }, 4000));
  return events;
}

describe('a run the policy made read-only', () => {
  it('keeps the notice and the refused command', () => {
    const progress = new RunProgress({ agent: 'codex' });
    for (const event of readOnlyRun()) progress.apply(event);
    expect(progress.notices).toEqual([
      {
        code: 'read_only',
        message: 'The policy made Codex read-only: `exec_command` is `ask`, and Codex cannot ask during a run.',
      },
    ]);
    expect(progress.refused).toEqual([{ target: "/bin/bash -lc 'touch x'", reason: 'Read-only file system' }]);
  });

  it('does not count failures as refusals when no restriction was announced', () => {
    const progress = new RunProgress({ agent: 'codex' });
    for (const event of readOnlyRun().filter((e) => e.type !== 'notice')) progress.apply(event);
    expect(progress.refused).toEqual([]);
  });

  it('says why in the check run and the tracking comment, not only "no changes"', () => {
    const progress = new RunProgress({ agent: 'codex' });
    for (const event of readOnlyRun()) progress.apply(event);
    const finished = { conclusion: 'success' as const, noChanges: true };
    const output = renderCheckRunOutput(progress, { finished });
    expectGolden('read-only.check-run.md', `${output.title}\n\n${output.summary}\n\n${output.text}\n`);
    const comment = renderTrackingComment(progress, { runId: 'run-7', finished });
    expectGolden('read-only.comment.md', comment);
    for (const text of [output.summary ?? '', comment]) {
      expect(text).toContain('read-only');
      expect(text).toContain("`/bin/bash -lc 'touch x'` (Read-only file system)");
    }
    expect(comment).not.toContain('The agent made no changes.');
  });
});
