import {
  ADAPTER_SPECIFICATION_VERSION,
  type Adapter,
  type AuthStatus,
  type Capabilities,
} from '../../../core/adapter/index.ts';
import { detectOpenCodeStyleAuth, openCodeDataDir, openCodeProviderKeyEnv } from '../opencode/opencode-auth.ts';
import { type OpenCodeFlavor, openCodePlan } from '../opencode/opencode-plan.ts';
import { openCodeTranslator } from '../opencode/opencode-translator.ts';

export const KILO_NPM_PACKAGE = '@kilocode/cli';
/** 7.8.1 is the latest on npm, but its linux platform packages were never published; 7.7.7 has them. */
export const KILO_TESTED_VERSION = '7.7.7';

/**
 * Kilo Code's CLI is an OpenCode fork: `kilo run` takes OpenCode's flags and prints the same
 * `--format json` events (step_start, text, reasoning, tool_use, step_finish, error), so the plan and
 * translator are OpenCode's with Kilo's names (`kilo`, `KILO_CONFIG_CONTENT`, `~/.local/share/kilo`).
 */
export const kiloCapabilities: Capabilities = {
  resume: true,
  fork: true,
  thinking: 'model-dependent',
  mcp: true,
  // Like OpenCode, `kilo run` auto-rejects `ask` permissions (no relay hook); `--auto` would approve them all.
  approvals: 'none',
  pty: 'never',
  platforms: ['darwin', 'linux', 'win32'],
  sessionPersistence: 'sqlite',
  execModel: 'run-to-completion',
  nativeSessionIds: true,
  turnCompletion: true,
  streaming: 'full',
};

export const kiloFlavor: OpenCodeFlavor = {
  command: 'kilo',
  configContentEnv: 'KILO_CONFIG_CONTENT',
  env: { KILO_DISABLE_AUTOUPDATE: '1' },
  tempPrefix: 'agent-mux-kilo-',
  defaultAgent: 'code',
};

export interface KiloAdapterOptions {
  /** The executable (default `kilo`). */
  command?: string;
}

export function detectKiloAuth(env: Readonly<Record<string, string | undefined>>): AuthStatus {
  return detectOpenCodeStyleAuth('kilo', ['KILO_API_KEY'], env);
}

/** Kilo Code CLI, headless: `kilo run --format json …`, prompt on stdin. */
export function kiloAdapter(options: KiloAdapterOptions = {}): Adapter {
  const command = options.command ?? 'kilo';
  return {
    specificationVersion: ADAPTER_SPECIFICATION_VERSION,
    id: 'kilo',
    displayName: 'Kilo Code CLI',
    capabilities: kiloCapabilities,
    program: {
      command,
      versionArgs: ['--version'],
      minVersion: '7.0.0',
      install: [{ type: 'npm', command: `npm install -g ${KILO_NPM_PACKAGE}` }],
      npmPackage: KILO_NPM_PACKAGE,
      testedVersion: KILO_TESTED_VERSION,
      verifiedLive: true,
    },
    costModel: undefined,
    secretEnv: ['KILO_API_KEY', ...openCodeProviderKeyEnv],
    sessionDir: openCodeDataDir('kilo', process.env),
    detectAuth: detectKiloAuth,
    launch: {
      kind: 'process',
      plan: (ctx) => openCodePlan(ctx, { ...kiloFlavor, command }),
      translator: openCodeTranslator,
    },
  };
}
