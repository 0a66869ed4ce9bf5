import type { z } from 'zod';
import type {
  Adapter,
  AuthStatus,
  Capabilities,
  LaunchContext,
  ProgramInfo,
  SessionFileDeclaration,
  SpawnPlan,
} from '../../../core/adapter/index.ts';
import type { acpAdapterConfigSchema } from '../../../core/config/adapter-config-schema.ts';
import { configuredAdapterBase } from '../../shared/configured-adapter-base.ts';
import { type AcpControllerOptions, acpController } from './acp-controller.ts';
import { acpTranslator } from './acp-translator.ts';

/** The `acp` entry of a configuration (`binary`, `args` and `env` templates, `costModel`, `secretEnv`). */
export type AcpOptions = Omit<z.input<typeof acpAdapterConfigSchema>, 'type'>;

export const acpCapabilities: Capabilities = {
  resume: true,
  fork: false,
  thinking: 'model-dependent',
  mcp: true,
  approvals: 'native',
  pty: 'never',
  platforms: ['darwin', 'linux'],
  sessionPersistence: 'file',
  execModel: 'interactive',
  nativeSessionIds: true,
  turnCompletion: true,
  streaming: 'full',
  // A message during a run goes as the next `session/prompt` when the current one ends (acp-controller.ts).
  steering: true,
};

/** What a built-in ACP adapter adds to the generic one. */
export interface AcpAdapterExtras extends AcpControllerOptions {
  displayName?: string;
  capabilities?: Partial<Capabilities>;
  program?: ProgramInfo;
  /** Where the agent keeps its sessions. */
  sessionDir?: string;
  sessionFiles?: SessionFileDeclaration;
  /** What the agent reads from the repository beyond the common set (`Adapter.readsFromRepository`). */
  readsFromRepository?: readonly string[];
  /** The Action's inputs for its keys (`Adapter.keyInputs`). */
  keyInputs?: Readonly<Record<string, string>>;
  detectAuth?: (env: Readonly<Record<string, string | undefined>>) => AuthStatus;
  /** Expand `{{runId}}`, `${NAME}`, … in `args` and `env`. Default true (a user's configuration). */
  expandTemplates?: boolean;
  /** Environment computed per run (e.g. the run's policy as the agent's own permission config), over `env`. */
  runEnv?: (ctx: LaunchContext) => Record<string, string>;
  /**
   * The arguments that turn the agent's own file and shell tools off and let it call the run's MCP
   * tools without asking (the caller's policy asks): added when the run wants the caller's tools
   * only (`RunRequest.callerToolsOnly`). Set: the adapter's `callerTools` is `mcp`.
   */
  callerToolsArgs?: readonly string[];
  /** The agent's own sandbox, probed before the run (`SpawnPlan.sandboxProbe`). */
  sandboxProbe?: SpawnPlan['sandboxProbe'];
}

/**
 * Any program that speaks the Agent Client Protocol (v1) on its stdio, run through the core's
 * process path (process group, timeouts, fence): the `acp` type of a configuration, and the base of
 * the built-in `<agent>-acp` adapters.
 */
export function acpAdapter(id: string, config: AcpOptions, extras: AcpAdapterExtras = {}): Adapter {
  return {
    ...configuredAdapterBase({
      id,
      displayName: extras.displayName ?? `${id} (acp: ${config.binary})`,
      capabilities: { ...acpCapabilities, ...extras.capabilities },
      config,
    }),
    ...(extras.program ? { program: extras.program } : {}),
    ...(extras.sessionDir ? { sessionDir: extras.sessionDir } : {}),
    ...(extras.sessionFiles ? { sessionFiles: extras.sessionFiles } : {}),
    ...(extras.readsFromRepository ? { readsFromRepository: extras.readsFromRepository } : {}),
    ...(extras.keyInputs ? { keyInputs: extras.keyInputs } : {}),
    ...(extras.detectAuth ? { detectAuth: extras.detectAuth } : {}),
    ...(extras.callerToolsArgs ? { callerTools: 'mcp' as const } : {}),
    launch: {
      kind: 'process',
      plan: (ctx) => ({
        command: config.binary,
        args: [...(config.args ?? []), ...(ctx.request.callerToolsOnly ? (extras.callerToolsArgs ?? []) : [])],
        env: { ...(config.env ?? {}), ...(extras.runEnv?.(ctx) ?? {}) },
        keepStdinOpen: true,
        expandTemplates: extras.expandTemplates ?? true,
        protocol: 'json-lines',
        ...(extras.sandboxProbe ? { sandboxProbe: extras.sandboxProbe } : {}),
      }),
      translator: acpTranslator,
      controller: (io, ctx) => acpController(io, ctx, extras),
    },
  };
}
