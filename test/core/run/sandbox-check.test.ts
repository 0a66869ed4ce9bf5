import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import type { Adapter } from '../../../src/core/adapter/index.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { autoApprovalChannel } from '../../../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';
import { collectRun } from '../../support/collect-run.ts';

const referenceAgent = new URL('../../../examples/process-agent.mjs', import.meta.url).pathname;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The reference agent (it writes hello.txt through the tool host) with a sandbox probe that can
 * only end once that file exists, then fails: it passes only if the agent runs while it probes.
 */
function agentWithProbe(): Adapter {
  const base = processAdapter('reference', { binary: process.execPath, args: [referenceAgent] });
  if (base.launch.kind !== 'process') throw new Error('a process adapter');
  const launch = base.launch;
  return {
    ...base,
    launch: {
      ...launch,
      plan: async (ctx) => ({
        ...(await launch.plan(ctx)),
        sandboxProbe: {
          command: 'sh',
          args: [
            '-c',
            'for i in $(seq 1 40); do [ -e hello.txt ] && break; sleep 0.05; done; echo "uid map: denied" >&2; exit 1',
          ],
          what: 'The stand-in sandbox',
          fix: 'Nothing to fix',
        },
      }),
    },
  };
}

async function run(sandboxUnavailable: 'warn' | 'fail') {
  const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-sandbox-check-'));
  dirs.push(cwd);
  return collectRun(
    startRun({
      adapter: agentWithProbe(),
      request: { prompt: 'hello there', cwd },
      sandboxUnavailable,
      tools: ({ runId, emit }) =>
        createToolHost({
          runId,
          workspacePath: cwd,
          tools: builtinTools(),
          policy: { default: 'allow' },
          approvals: autoApprovalChannel('approve'),
          emit,
          task: { prompt: 'hello there' },
        }),
    }),
  );
}

describe('the agent’s own sandbox probe (SpawnPlan.sandboxProbe)', () => {
  it('warn: the probe runs beside the agent’s start, and its notice still comes before the run ends', async () => {
    const { events, end } = await run('warn');
    expect(end.reason).toBe('completed');
    const notices = events.filter((e) => e.type === 'notice' && e.code === 'sandbox_unavailable');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ message: expect.stringContaining('uid map: denied') });
    // The write the probe waited for happened before the notice: the agent did not wait for the probe.
    const wrote = events.findIndex((e) => e.type === 'tool_result');
    expect(wrote).toBeGreaterThanOrEqual(0);
    expect(wrote).toBeLessThan(events.indexOf(notices[0]!));
  });

  it('fail: the agent waits for the probe, and a failed probe starts nothing', async () => {
    const { events, end } = await run('fail');
    expect(end.reason).toBe('failed');
    expect(end.message).toMatch(/^not started \(sandboxUnavailable: fail\): The stand-in sandbox does not work here/);
    expect(events.some((e) => e.type === 'tool_call_start' || e.type === 'tool_result')).toBe(false);
  });
});
