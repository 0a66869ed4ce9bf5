import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CODEX_SANDBOX_PROBE, codexPlan } from '../../../src/adapters/agents/codex/codex-plan.ts';
import type { LaunchContext, SpawnPlan } from '../../../src/core/adapter/index.ts';
import { probeSandbox } from '../../../src/core/run/probe-sandbox.ts';
import { probeFence } from '../../../src/core/sandbox/index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const fenceWorks = (await probeFence({ kind: 'processes' }, tmpdir())).ok;

/** A stand-in `codex`: `sandbox -- true` fails as bubblewrap fails where user namespaces are refused, unless SANDBOX_OK is set. */
function standInCodex(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-probe-'));
  dirs.push(dir);
  const bin = join(dir, 'codex');
  writeFileSync(
    bin,
    '#!/bin/sh\n[ -n "$SANDBOX_OK" ] && exit 0\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return bin;
}

const plan = (command: string): SpawnPlan => ({
  command,
  args: [],
  protocol: 'json-lines',
  sandboxProbe: CODEX_SANDBOX_PROBE,
});

describe('probeSandbox (the agent’s own sandbox, probed before it starts)', () => {
  it('a refused sandbox: the notice says what failed, what it printed and the fix', async () => {
    const cwd = dirs[0] ?? tmpdir();
    const message = await probeSandbox(plan(standInCodex()), { env: { PATH: '/usr/bin:/bin' }, cwd, workspace: cwd });
    expect(message).toMatch(
      /^Codex’s own sandbox does not work here \(`.*codex sandbox -- true` failed: bwrap: setting up uid map: Permission denied\)\. Every command Codex sandboxes will fail\./,
    );
    expect(message).toContain('kernel.apparmor_restrict_unprivileged_userns=0');
  });

  it('a working sandbox, or no probe: nothing to say', async () => {
    const bin = standInCodex();
    const cwd = tmpdir();
    expect(
      await probeSandbox(plan(bin), { env: { PATH: '/usr/bin:/bin', SANDBOX_OK: '1' }, cwd, workspace: cwd }),
    ).toBeUndefined();
    expect(
      await probeSandbox({ command: bin, args: [], protocol: 'text' }, { env: {}, cwd, workspace: cwd }),
    ).toBeUndefined();
  });

  it.skipIf(!fenceWorks)('runs inside the run’s fence, with the agent’s environment', async () => {
    const bin = standInCodex();
    const cwd = tmpdir();
    const fence = { kind: 'processes' as const };
    expect(
      await probeSandbox(plan(bin), { env: { PATH: '/usr/bin:/bin', SANDBOX_OK: '1' }, cwd, workspace: cwd, fence }),
    ).toBeUndefined();
    expect(await probeSandbox(plan(bin), { env: { PATH: '/usr/bin:/bin' }, cwd, workspace: cwd, fence })).toMatch(
      /uid map/,
    );
  });

  it('Codex’s plan probes its sandbox unless it runs without one (danger-full-access)', () => {
    const ctx = { runId: 'r', request: { prompt: 'p', cwd: '/w' }, policy: { default: 'allow' } } as LaunchContext;
    expect(codexPlan(ctx).sandboxProbe).toEqual(CODEX_SANDBOX_PROBE);
    expect(codexPlan(ctx, { sandbox: 'danger-full-access' }).sandboxProbe).toBeUndefined();
  });
});

describe('sandboxUnavailable (repo config tools.sandboxUnavailable)', () => {
  const withProbe = async (marker: string) => {
    const { processAdapter } = await import('../../../src/adapters/protocols/process/process-adapter.ts');
    const base = processAdapter('probed', { binary: 'sh', args: ['-c', `touch ${marker}`] });
    if (base.launch.kind !== 'process') throw new Error('a process adapter');
    const launch = base.launch;
    const probe = {
      command: standInCodex(),
      args: ['sandbox', '--', 'true'],
      what: 'The stand-in sandbox',
      fix: 'Fix it',
    };
    return {
      ...base,
      launch: { ...launch, plan: async (ctx: LaunchContext) => ({ ...(await launch.plan(ctx)), sandboxProbe: probe }) },
    };
  };

  it.each([
    ['warn', 'completed', true],
    ['fail', 'failed', false],
  ] as const)('%s: the run ends %s; the agent started: %s', async (mode, reason, started) => {
    const { existsSync } = await import('node:fs');
    const { startRun } = await import('../../../src/core/run/start-run.ts');
    const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-probe-run-'));
    dirs.push(cwd);
    const marker = join(cwd, 'started');
    const events: { type: string; code?: string; message?: string }[] = [];
    const end = await startRun({
      adapter: await withProbe(marker),
      request: { prompt: 'x', cwd },
      env: { PATH: '/usr/bin:/bin' },
      sandboxUnavailable: mode,
      checkVersion: false,
      onEvent: (event) => events.push(event as never),
    }).result;
    expect(end.reason).toBe(reason);
    expect(existsSync(marker)).toBe(started);
    expect(events.find((e) => e.type === 'notice')).toMatchObject({ code: 'sandbox_unavailable' });
    if (mode === 'fail')
      expect(end.message).toMatch(/^not started \(sandboxUnavailable: fail\): The stand-in sandbox does not work here/);
  });
});
