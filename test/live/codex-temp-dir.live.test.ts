import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/agents/codex/index.ts';
import type { AgentEvent } from '../../src/core/events/index.ts';
import { startRun } from '../../src/core/run/start-run.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import { spec } from './specs/codex.live.ts';

// Issue 31: with its config dir (HOME) under its temp dir (/tmp), Codex refuses to create the
// helper alias its sandbox runs, and every sandboxed command fails without a trace in its output:
// before agent-mux gave such a run a temp dir of its own, this run ended `completed` with no tool
// call at all. The model asks for a plain (sandboxed, not escalated) command.

let model: FakeModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await model?.close();
  model = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('Codex with its HOME under /tmp', () => {
  it('runs a sandboxed command (its helpers are created: the run gets a temp dir beside its HOME)', async () => {
    const bin = await installCli(spec);
    model = await startFakeModelServer({ case: 'tool', shell: { command: 'echo agent-mux-live' } });
    const home = mkdtempSync(join(tmpdir(), 'agent-mux-codex-home-'));
    const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-codex-ws-'));
    dirs.push(home, cwd);
    const { env } = await spec.setup({ baseUrl: model.url, home, workspace: cwd, bin, case: 'tool' });
    const events: AgentEvent[] = [];
    const handle = startRun({
      adapter: codexAdapter({ command: bin }),
      request: { prompt: 'Run the shell command `echo agent-mux-live` and tell me what it printed.', cwd },
      policy: { default: 'allow' },
      env: { PATH: process.env.PATH, HOME: home, ...env },
      onEvent: (event) => events.push(event),
    });
    const end = await handle.result;
    expect(end.reason).toBe('completed');
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results).toEqual([expect.objectContaining({ toolName: 'exec_command', isError: false })]);
    expect(JSON.stringify(results)).toContain('agent-mux-live');
    // Its sandbox probe passed: no notice.
    expect(events.filter((e) => e.type === 'notice')).toEqual([]);
  }, 120_000);
});
