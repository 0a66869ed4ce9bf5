import type {
  Adapter,
  AuthStatus,
  Capabilities,
  LaunchContext,
  SessionFileDeclaration,
  SpawnPlan,
} from '../../../core/adapter/index.ts';
import { cliProgramInfo } from '../../shared/define-cli-adapter.ts';
import { acpAdapter } from './acp-adapter.ts';
import type { AcpSessionLog } from './acp-session-log.ts';

/** What tells one built-in `<agent>-acp` adapter from another. */
export interface BuiltinAcpAgent {
  id: string;
  displayName: string;
  /** The executable run (the factory's `command` option, or the agent's default). */
  command: string;
  args?: string[];
  env?: Record<string, string>;
  costModel?: string;
  secretEnv: readonly string[];
  /** The npm package and the version tested over ACP (also the minimum accepted). */
  npmPackage: string;
  testedVersion: string;
  npmOverrides?: Readonly<Record<string, string>>;
  sessionDir: string;
  /** Which files make up one session (`Adapter.sessionFiles`). */
  sessionFiles?: SessionFileDeclaration;
  /** What it reads from the repository beyond the common set (`Adapter.readsFromRepository`): its CLI's. */
  readsFromRepository: readonly string[];
  /** The Action's inputs for its keys (`Adapter.keyInputs`): its CLI's. */
  keyInputs?: Readonly<Record<string, string>>;
  detectAuth: (env: Readonly<Record<string, string | undefined>>) => AuthStatus;
  /** Capabilities other than ACP's defaults; the platforms are darwin, linux and win32 unless given. */
  capabilities?: Partial<Capabilities>;
  /** Environment computed per run, over `env` (see `AcpAdapterExtras.runEnv`). */
  runEnv?: (ctx: LaunchContext) => Record<string, string>;
  /** The agent's own session log, read for what its ACP messages leave out. */
  sessionLog?: AcpSessionLog;
  /** The agent's own sandbox, probed before the run. */
  sandboxProbe?: SpawnPlan['sandboxProbe'];
}

/**
 * A built-in ACP adapter for a CLI from npm: the generic ACP adapter with the agent's own
 * configuration left alone (no template expansion), its auth check and session directory, and a
 * program installed with `npm install -g <package>` and verified live at the tested version.
 */
export function builtinAcpAdapter(agent: BuiltinAcpAgent): Adapter {
  return acpAdapter(
    agent.id,
    {
      binary: agent.command,
      ...(agent.args ? { args: agent.args } : {}),
      ...(agent.env ? { env: agent.env } : {}),
      ...(agent.costModel ? { costModel: agent.costModel } : {}),
      secretEnv: [...agent.secretEnv],
    },
    {
      displayName: agent.displayName,
      expandTemplates: false,
      capabilities: { platforms: ['darwin', 'linux', 'win32'], ...agent.capabilities },
      sessionDir: agent.sessionDir,
      detectAuth: agent.detectAuth,
      ...(agent.sessionFiles ? { sessionFiles: agent.sessionFiles } : {}),
      readsFromRepository: agent.readsFromRepository,
      ...(agent.keyInputs ? { keyInputs: agent.keyInputs } : {}),
      ...(agent.runEnv ? { runEnv: agent.runEnv } : {}),
      ...(agent.sessionLog ? { sessionLog: agent.sessionLog } : {}),
      ...(agent.sandboxProbe ? { sandboxProbe: agent.sandboxProbe } : {}),
      program: cliProgramInfo(
        {
          command: agent.command,
          minVersion: agent.testedVersion,
          npmPackage: agent.npmPackage,
          testedVersion: agent.testedVersion,
          ...(agent.npmOverrides ? { npmOverrides: agent.npmOverrides } : {}),
          verifiedLive: true,
        },
        agent.command,
      ),
    },
  );
}
