import type { Adapter, AuthStatus, LaunchContext } from '../../../../core/adapter/index.ts';
import {
  detectKiloAuth,
  KILO_NPM_PACKAGE,
  KILO_TESTED_VERSION,
  kiloFlavor,
} from '../../../agents/kilo/kilo-adapter.ts';
import { OPENCODE_NPM_PACKAGE, OPENCODE_TESTED_VERSION } from '../../../agents/opencode/opencode-adapter.ts';
import { detectOpenCodeAuth, openCodeDataDir, openCodeProviderKeyEnv } from '../../../agents/opencode/opencode-auth.ts';
import { type OpenCodeFlavor, openCodePermission, opencodeFlavor } from '../../../agents/opencode/opencode-plan.ts';
import { builtinAcpAdapter } from './builtin-acp-adapter.ts';

export interface OpenCodeAcpAdapterOptions {
  /** The executable (default `opencode`, `kilo`). */
  command?: string;
}

interface OpenCodeStyleAcp {
  id: string;
  displayName: string;
  flavor: OpenCodeFlavor;
  npmPackage: string;
  testedVersion: string;
  secretEnv: readonly string[];
  detectAuth: (env: Readonly<Record<string, string | undefined>>) => AuthStatus;
}

/**
 * The permission config an OpenCode-style agent gets over ACP: every tool `ask`, so each call
 * reaches the client as `session/request_permission` and the run's policy decides it there (allow
 * without asking, or the approval channel); the policy's `deny` rules also remove the tool, as in
 * the headless mode.
 */
export function openCodeAcpPermission(ctx: LaunchContext): Record<string, unknown> {
  const denies = (ctx.policy?.rules ?? []).filter((rule) => rule.decision === 'deny');
  return openCodePermission({ default: 'ask', rules: denies });
}

function openCodeStyleAcpAdapter(agent: OpenCodeStyleAcp, options: OpenCodeAcpAdapterOptions): Adapter {
  return builtinAcpAdapter({
    id: agent.id,
    displayName: agent.displayName,
    command: options.command ?? agent.flavor.command,
    args: ['acp'],
    env: { ...agent.flavor.env },
    secretEnv: agent.secretEnv,
    npmPackage: agent.npmPackage,
    testedVersion: agent.testedVersion,
    capabilities: { sessionPersistence: 'sqlite' },
    sessionDir: openCodeDataDir(agent.flavor.command, process.env),
    detectAuth: agent.detectAuth,
    // Inline config, merged over the user's and the workspace's files: permissions only (the
    // run's MCP server comes through `session/new`).
    runEnv: (ctx) => {
      const permission = openCodeAcpPermission(ctx);
      const config = { permission, agent: { [agent.flavor.defaultAgent]: { permission } } };
      return { [agent.flavor.configContentEnv]: JSON.stringify(config) };
    },
  });
}

/** OpenCode over ACP (`opencode acp`): its permission questions go to the run's approval channel. */
export function opencodeAcpAdapter(options: OpenCodeAcpAdapterOptions = {}): Adapter {
  return openCodeStyleAcpAdapter(
    {
      id: 'opencode-acp',
      displayName: 'OpenCode (ACP)',
      flavor: opencodeFlavor,
      npmPackage: OPENCODE_NPM_PACKAGE,
      testedVersion: OPENCODE_TESTED_VERSION,
      secretEnv: ['OPENCODE_API_KEY', ...openCodeProviderKeyEnv],
      detectAuth: detectOpenCodeAuth,
    },
    options,
  );
}

/** Kilo Code CLI over ACP (`kilo acp`), an OpenCode fork. */
export function kiloAcpAdapter(options: OpenCodeAcpAdapterOptions = {}): Adapter {
  return openCodeStyleAcpAdapter(
    {
      id: 'kilo-acp',
      displayName: 'Kilo Code CLI (ACP)',
      flavor: kiloFlavor,
      npmPackage: KILO_NPM_PACKAGE,
      testedVersion: KILO_TESTED_VERSION,
      secretEnv: ['KILO_API_KEY', ...openCodeProviderKeyEnv],
      detectAuth: detectKiloAuth,
    },
    options,
  );
}
