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
// `budget_exceeded`. The reference Process-protocol agent reports ~1,100 tokens a step, 20 ms apart.
const node = process.execPath;
const referenceAgent = new URL('../../../examples/process-agent.mjs', import.meta.url).pathname;
const STEP_TOKENS = 1100;

const notices = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'notice' ? [`${e.code}: ${e.message}`] : []));
function run(
  onBudgetSpent: (spent: BudgetSpent) => Promise<Budget | undefined>,
  extra: { inactivityMs?: number } = {},
) {
  const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-budget-'));
  return collectRun(
    startRun({
      adapter: processAdapter('reference', {
        binary: node,
        args: [referenceAgent],
        env: { REFERENCE_AGENT_STEPS: '30' },
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
      budget: { tokens: 6000 },
      onBudgetSpent,
      graceMs: 2000,
      ...(extra.inactivityMs === undefined ? {} : { inactivityTimeoutMs: extra.inactivityMs }),
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
    expect(asked[0]?.tokens).toBeGreaterThanOrEqual(6000);
    // At most one step (one model response) past each limit.
    expect(asked[0]?.tokens).toBeLessThanOrEqual(6000 + STEP_TOKENS);
    expect(end.totals.inputTokens + end.totals.outputTokens).toBeLessThanOrEqual(12_000 + STEP_TOKENS);
    expect(end.reason).toBe('budget_exceeded');
    expect(notices(events)).toEqual([
      "budget_paused: the run's budget (6000 tokens) is spent: the agent is paused until it is raised",
      "budget_raised: the run's budget was raised to 12000 tokens",
      "budget_paused: the run's budget (12000 tokens) is spent: the agent is paused until it is raised",
    ]);
    // Stopped while paused, the agent still shut down by itself (continued first): its `failed` answer.
    expect(events.some((e) => e.type === 'error' && e.message.startsWith('budget_exceeded'))).toBe(true);
  });

  it('spends nothing while paused: no step between the pause and the raise', async () => {
    let pausedAt = 0;
    let raisedAt = 0;
    const { events } = await run(async () => {
      pausedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 800));
      raisedAt = Date.now();
      return raisedAt === 0 ? undefined : { tokens: 1_000_000 };
    });
    const steps = events.filter((e) => e.type === 'progress' && /^step \d+$/.test(e.summary));
    const during = steps.filter((e) => e.timestamp > pausedAt + 50 && e.timestamp < raisedAt);
    expect(during).toEqual([]);
    expect(steps.length).toBe(30); // raised: it went on to the end
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
