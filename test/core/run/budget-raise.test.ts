import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import type { AgentEvent } from '../../../src/core/events/index.ts';
import type { Budget, BudgetSpent } from '../../../src/core/run/run-options.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { autoApprovalChannel } from '../../../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';
import { collectRun } from '../../support/collect-run.ts';

// Issue 37.2: a run that reaches its budget pauses (its process group SIGSTOPped: it spends
// nothing while it waits), asks, and goes on when the budget is raised; not raised, it ends
// `budget_exceeded`. The reference Process-protocol agent reports 1,150 tokens, then ~1,100 a step
// (a model response), 20 ms apart; each response calls `read_task` and the next waits for its result,
// as a model turn that uses a tool does. Without that wait the agent ran ahead of the core: on a
// loaded machine it had written 28 steps before the core read the one that crossed the budget.
const node = process.execPath;
const referenceAgent = new URL('../../../examples/process-agent.mjs', import.meta.url).pathname;
const FIRST_TOKENS = 1150;
const STEP_TOKENS = 1100;
/** What the agent has spent once it reported the first response that reached `budget`. */
const spentAtPause = (budget: number) => FIRST_TOKENS + Math.ceil((budget - FIRST_TOKENS) / STEP_TOKENS) * STEP_TOKENS;

const notices = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'notice' ? [`${e.code}: ${e.message}`] : []));
const isStep = (e: AgentEvent) => e.type === 'progress' && /^step \d+$/.test(e.summary);
function run(
  onBudgetSpent: (spent: BudgetSpent) => Promise<Budget | undefined>,
  extra: { inactivityMs?: number; timeoutMs?: number; env?: Record<string, string>; tokens?: number } = {},
) {
  const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-budget-'));
  return collectRun(
    startRun({
      adapter: processAdapter('reference', {
        binary: node,
        args: [referenceAgent],
        env: extra.env ?? { REFERENCE_AGENT_STEPS: '30', REFERENCE_AGENT_STEP_TOOL: 'read_task' },
      }),
      request: { prompt: 'long task', cwd },
      tools: ({ runId, emit }) =>
        createToolHost({
          runId,
          workspacePath: cwd,
          tools: builtinTools(),
          policy: { default: 'allow' },
          approvals: autoApprovalChannel('approve'),
          emit,
          task: { prompt: 'long task' },
        }),
      budget: { tokens: extra.tokens ?? 6000 },
      onBudgetSpent,
      graceMs: 2000,
      ...(extra.inactivityMs === undefined ? {} : { inactivityTimeoutMs: extra.inactivityMs }),
      ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
    }),
  );
}

describe('a spent budget that may be raised', () => {
  it('pauses the agent (nothing more is spent while it waits), then goes on under the raised budget', async () => {
    const asked: BudgetSpent[] = [];
    const { events, end } = await run(async (spent) => {
      asked.push(spent);
      if (asked.length > 1) return undefined; // the second time: not raised
      await new Promise((resolve) => setTimeout(resolve, 600));
      return { tokens: 12_000 };
    });
    expect(asked.map((a) => a.budget)).toEqual([{ tokens: 6000 }, { tokens: 12_000 }]);
    // Each pause lands on the response that crossed its limit (6,650 and 12,150 tokens): at most one
    // model response past each.
    expect(asked.map((a) => a.tokens)).toEqual([spentAtPause(6000), spentAtPause(12_000)]);
    expect(spentAtPause(12_000) - 12_000).toBeLessThanOrEqual(STEP_TOKENS);
    // Not raised the second time, it ended while paused: asked to shut down before it was continued,
    // it took no step more. It spent exactly what it had when it paused (10 steps), where continuing
    // it first let it take an 11th (13,250 tokens: more than one response past its budget).
    expect(events.filter(isStep)).toHaveLength((spentAtPause(12_000) - FIRST_TOKENS) / STEP_TOKENS);
    expect(end.totals.inputTokens + end.totals.outputTokens).toBe(spentAtPause(12_000));
    expect(end.reason).toBe('budget_exceeded');
    expect(notices(events)).toEqual([
      "budget_paused: the run's budget (6000 tokens) is spent: the agent is paused until it is raised",
      "budget_raised: the run's budget was raised to 12000 tokens",
      "budget_paused: the run's budget (12000 tokens) is spent: the agent is paused until it is raised",
    ]);
    // Stopped while paused, the agent still shut down by itself (asked, then continued): its `failed` answer.
    expect(events.some((e) => e.type === 'error' && e.message.startsWith('budget_exceeded'))).toBe(true);
  });

  it('spends nothing while paused: no step between the pause and the raise', async () => {
    const { events } = await run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      return { tokens: 1_000_000 };
    });
    // The result of the crossing response's tool reaches the agent at once: not paused, it would
    // have gone on through the 800 ms the raise took.
    const seen = events.flatMap((e) =>
      isStep(e) ? ['step'] : e.type === 'notice' && e.code.startsWith('budget_') ? [e.code] : [],
    );
    const paused = seen.indexOf('budget_paused');
    expect(paused).toBe((spentAtPause(6000) - FIRST_TOKENS) / STEP_TOKENS);
    expect(seen[paused + 1]).toBe('budget_raised');
    expect(seen.filter((s) => s === 'step')).toHaveLength(30); // raised: it went on to the end
  });

  it('ended while paused (not raised), it takes no step more: asked to shut down before it is continued', async () => {
    // Free-running, a step a second: paused in its wait after the first step (2,250 tokens against
    // 2,000), denied 1.5 s later, when its next step is due. Continued before it was asked, it took
    // that step (3,350 tokens) before it read `shutdown`.
    const { events, end } = await run(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return undefined;
      },
      { tokens: 2000, env: { REFERENCE_AGENT_STEPS: '30', REFERENCE_AGENT_STEP_MS: '1000' } },
    );
    expect(end.reason).toBe('budget_exceeded');
    expect(events.filter(isStep)).toHaveLength(1);
    expect(end.totals.inputTokens + end.totals.outputTokens).toBe(FIRST_TOKENS + STEP_TOKENS);
    // It shut down by itself: its `failed` answer to `shutdown`.
    expect(events.some((e) => e.type === 'error' && e.message.startsWith('budget_exceeded'))).toBe(true);
  });

  it('timed out while paused, it is asked to shut down and continued: it answers, with no step more', async () => {
    const { events, end } = await run(() => new Promise<undefined>(() => {}), {
      tokens: 2000,
      timeoutMs: 1500,
      env: { REFERENCE_AGENT_STEPS: '30', REFERENCE_AGENT_STEP_MS: '1000' },
    });
    expect(end.reason).toBe('timeout');
    expect(events.filter(isStep)).toHaveLength(1);
    expect(end.totals.inputTokens + end.totals.outputTokens).toBe(FIRST_TOKENS + STEP_TOKENS);
    // Its answer to `shutdown`: left paused, it could only have been killed once the grace was over.
    expect(events.some((e) => e.type === 'error' && e.message.startsWith('timeout: shut down'))).toBe(true);
  });

  it('a pause longer than the inactivity limit does not trip it', async () => {
    const { end } = await run(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return { tokens: 1_000_000 };
      },
      { inactivityMs: 700 },
    );
    expect(end.reason).toBe('completed');
  });
});
