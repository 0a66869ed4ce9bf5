import type { Adapter, Capabilities } from '../../../core/adapter/index.ts';
import { type AcpAdapterExtras, acpAdapter } from './acp-adapter.ts';

/** What an ACP mode adds to the CLI adapter of the same program. */
export interface CliAcpMode {
  id: string;
  displayName: string;
  /** The arguments that start the program's ACP mode (`--acp`, `--mode acp`, …). */
  args: string[];
  /**
   * True when the ACP mode needs the version tested over ACP (the CLI adapter's `testedVersion`)
   * rather than the CLI adapter's older minimum.
   */
  needsTestedVersion?: boolean;
  /** Environment for every run of the ACP mode. */
  env?: Record<string, string>;
  /** Environment computed per run, over `env` (the run's policy as the agent's permission config, …). */
  runEnv?: AcpAdapterExtras['runEnv'];
  /** Capabilities other than ACP's defaults (the platforms are the CLI adapter's). */
  capabilities?: Partial<Capabilities>;
  /** The arguments that leave the agent the run's MCP tools only (`AcpAdapterExtras.callerToolsArgs`). */
  callerToolsArgs?: readonly string[];
}

/**
 * The ACP mode of a program that also has a headless CLI adapter (`gemini --acp`, `qwen --acp`,
 * `omp --mode acp`, `opencode acp`): the same executable, platforms, install entries, secrets, cost model, session directory,
 * session files and auth check, taken from that adapter, so the two cannot disagree. The agent's own
 * configuration is left alone (no template expansion).
 */
export function cliAcpAdapter(cli: Adapter, mode: CliAcpMode): Adapter {
  const program = cli.program;
  const command = program?.command ?? cli.id;
  const minVersion = mode.needsTestedVersion ? program?.testedVersion : undefined;
  return acpAdapter(
    mode.id,
    {
      binary: command,
      args: mode.args,
      ...(mode.env ? { env: mode.env } : {}),
      ...(cli.costModel ? { costModel: cli.costModel } : {}),
      secretEnv: [...(cli.secretEnv ?? [])],
    },
    {
      displayName: mode.displayName,
      expandTemplates: false,
      // The platforms the program runs on; the rest are ACP's.
      capabilities: { platforms: [...cli.capabilities.platforms], ...mode.capabilities },
      ...(program ? { program: minVersion ? { ...program, minVersion } : program } : {}),
      ...(cli.sessionDir ? { sessionDir: cli.sessionDir } : {}),
      ...(cli.sessionFiles ? { sessionFiles: cli.sessionFiles } : {}),
      ...(cli.readsFromRepository ? { readsFromRepository: cli.readsFromRepository } : {}),
      ...(cli.keyInputs ? { keyInputs: cli.keyInputs } : {}),
      ...(cli.detectAuth ? { detectAuth: cli.detectAuth } : {}),
      ...(mode.runEnv ? { runEnv: mode.runEnv } : {}),
      ...(mode.callerToolsArgs ? { callerToolsArgs: mode.callerToolsArgs } : {}),
    },
  );
}
