import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSTALL_MARKER, packageCacheRoot } from '../../src/action/install-cache.ts';
import type { Adapter } from '../../src/core/adapter/index.ts';
import { offlineLaunchContext } from '../../src/core/adapter/offline-launch-context.ts';
import { cliDir, installCli } from '../../test/live/cli-cache.ts';
import type { LiveSpec } from '../../test/live/live-spec.ts';
import type { AloneInput } from './start-alone.ts';

/** One built-in agent made ready to run: its CLI installed, a warm tool cache, a HOME pointing it at the fake model. */
export interface AgentBenchSetup {
  id: string;
  /** The Action's `RUNNER_TOOL_CACHE`, holding the CLI as an earlier job's install would. */
  toolCache: string;
  home: string;
  /** The variables the live spec sets (dummy key, base URL, CODEX_PATH, …), given to the step and passed to the agent. */
  env: Record<string, string>;
}

/**
 * Installs the agent's CLI into the live tests' CLI cache (test/live/cli-cache.ts: once per machine),
 * lays a tool cache as `ensureAgentProgram` finds a complete earlier install (its directory links
 * to the CLI cache's `node_modules`), and runs the live spec's setup against the fake model server
 * in a HOME where the live suite keeps them (not under /tmp, which some CLIs refuse).
 */
export async function setUpAgent(
  adapter: Adapter,
  spec: LiveSpec,
  modelUrl: string,
  workspace: string,
  log: (line: string) => void,
): Promise<AgentBenchSetup> {
  const program = adapter.program;
  if (!program?.npmPackage || !program.testedVersion) throw new Error(`${adapter.id} pins no npm package`);
  const bin = await installCli(spec, log);
  const toolCache = mkdtempSync(join(tmpdir(), 'agent-mux-bench-tool-cache-'));
  const dir = join(packageCacheRoot(toolCache, program.npmPackage), program.testedVersion);
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(cliDir(spec), 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(
    join(dir, INSTALL_MARKER),
    JSON.stringify({
      npmPackage: program.npmPackage,
      version: program.testedVersion,
      spec: `${program.npmPackage}@${program.testedVersion}`,
      installedAt: new Date().toISOString(),
      ...(program.npmOverrides ? { overrides: program.npmOverrides } : {}),
    }),
  );
  const homes = join(homedir(), '.cache', 'agent-mux', 'live-homes');
  mkdirSync(homes, { recursive: true });
  const home = mkdtempSync(join(homes, `bench-${adapter.id}-`));
  const { env } = await spec.setup({ baseUrl: modelUrl, home, workspace, bin, case: 'plain' });
  return { id: adapter.id, toolCache, home, env };
}

/** What the adapter gives the program once it runs (its plan's stdin, or the ACP conversation), for `prompt`. */
export async function aloneInputOf(adapter: Adapter, prompt: string, cwd: string): Promise<AloneInput> {
  const launch = adapter.launch;
  if (launch.kind !== 'process') throw new Error(`${adapter.id} is not a local program`);
  const plan = await launch.plan(offlineLaunchContext({ prompt, cwd }, 'bench'));
  await plan.cleanup?.();
  return plan.keepStdinOpen ? { kind: 'acp', prompt, cwd } : { kind: 'stdin', text: plan.stdin };
}
