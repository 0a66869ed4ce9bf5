import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';

let workspace: string;
beforeEach(() => {
  workspace = mkdtempSync(join(tmpdir(), 'agent-mux-shell-'));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

const host = (timeoutMs = 5000, decision: 'allow' | 'deny' = 'allow') =>
  createToolHost({
    runId: 'r',
    workspacePath: workspace,
    tools: builtinTools({ shell: { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ONLY: 'this' }, timeoutMs } }),
    policy: { default: 'deny', rules: [{ tool: 'shell', decision }] },
    emit: () => undefined,
    task: { prompt: 'p' },
  });

describe('shell (the caller’s shell for agents whose tools are the run’s)', () => {
  it('is offered only when asked for', () => {
    expect(builtinTools().map((t) => t.name)).not.toContain('shell');
    expect(builtinTools({ shell: { env: {} } }).map((t) => t.name)).toContain('shell');
  });

  it('runs in the workspace with the given environment only, and returns exit code and output', async () => {
    process.env.AGENT_MUX_SHELL_TEST_SECRET = 'must-not-leak';
    const result = await host().call('shell', {
      command: 'printf \'hello\\n\' > GREETING.md; echo "$ONLY:${AGENT_MUX_SHELL_TEST_SECRET:-none}"; exit 3',
    });
    expect(result).toEqual({ ok: true, value: { exitCode: 3, stdout: 'this:none\n', stderr: '' } });
    expect(readFileSync(join(workspace, 'GREETING.md'), 'utf8')).toBe('hello\n');
  });

  it('kills a command that runs over its time, with what it started', async () => {
    const started = Date.now();
    const result = await host(300).call('shell', { command: 'sleep 30 & sleep 30; echo never' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result).toMatchObject({ ok: true, value: { timedOut: true, exitCode: null } });
  });

  it('is governed by the policy like any tool', async () => {
    const result = await host(5000, 'deny').call('shell', { command: 'touch x' });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('permission denied for shell') });
  });
});

describe('shell inside the app’s file-system fence', () => {
  const bwrap = (() => {
    try {
      execFileSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', 'true'], {
        stdio: 'ignore',
      });
      return true;
    } catch {
      return false;
    }
  })();

  it.runIf(bwrap)('writes in the checkout, and nowhere else of the host', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'agent-mux-shell-outside-'));
    try {
      const fenced = createToolHost({
        runId: 'r',
        workspacePath: workspace,
        tools: builtinTools({
          shell: {
            env: { PATH: '/usr/bin:/bin' },
            fence: { kind: 'filesystem', home: `${workspace}.home` },
            timeoutMs: 10_000,
          },
        }),
        policy: { default: 'allow' },
        emit: () => undefined,
        task: { prompt: 'p' },
      });
      const result = await fenced.call('shell', {
        command: `printf 'hello\\n' > GREETING.md; touch ${outside}/escaped 2>&1; echo "home=$HOME"`,
      });
      expect(result).toMatchObject({ ok: true, value: { exitCode: 0 } });
      expect(readFileSync(join(workspace, 'GREETING.md'), 'utf8')).toBe('hello\n');
      expect(existsSync(join(outside, 'escaped'))).toBe(false);
      expect((result as { value: { stdout: string } }).value.stdout).toContain(`home=${workspace}.home`);
    } finally {
      rmSync(outside, { recursive: true, force: true });
      rmSync(`${workspace}.home`, { recursive: true, force: true });
    }
  });
});
