import type { Adapter, LaunchContext } from '../../../../core/adapter/index.ts';
import { kiloAdapter, kiloFlavor } from '../../../agents/kilo/kilo-adapter.ts';
import { opencodeAdapter } from '../../../agents/opencode/opencode-adapter.ts';
import { type OpenCodeFlavor, openCodePermission, opencodeFlavor } from '../../../agents/opencode/opencode-plan.ts';
import type { CliAdapterOptions } from '../../../shared/define-cli-adapter.ts';
import { cliAcpAdapter } from './cli-acp-adapter.ts';

/** The options of {@link opencodeAcpAdapter} and {@link kiloAcpAdapter}: `command`, the executable. */
export type OpenCodeAcpAdapterOptions = CliAdapterOptions;

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

/**
 * `<program> acp` of an OpenCode-style CLI, from its headless adapter (executable, install, secrets,
 * session dir, auth check) and its flavor's names: inline config, merged over the user's and the
 * workspace's files, with permissions only (the run's MCP server comes through `session/new`).
 */
function openCodeStyleAcpAdapter(cli: Adapter, flavor: OpenCodeFlavor, displayName: string): Adapter {
  return cliAcpAdapter(cli, {
    id: `${cli.id}-acp`,
    displayName,
    args: ['acp'],
    needsTestedVersion: true,
    env: { ...flavor.env },
    capabilities: { sessionPersistence: 'sqlite' },
    runEnv: (ctx) => {
      const permission = openCodeAcpPermission(ctx);
      const config = { permission, agent: { [flavor.defaultAgent]: { permission } } };
      return { [flavor.configContentEnv]: JSON.stringify(config) };
    },
  });
}

/** OpenCode over ACP (`opencode acp`): its permission questions go to the run's approval channel. */
export function opencodeAcpAdapter(options: OpenCodeAcpAdapterOptions = {}): Adapter {
  return openCodeStyleAcpAdapter(opencodeAdapter(options), opencodeFlavor, 'OpenCode (ACP)');
}

/** Kilo Code CLI over ACP (`kilo acp`), an OpenCode fork. */
export function kiloAcpAdapter(options: OpenCodeAcpAdapterOptions = {}): Adapter {
  return openCodeStyleAcpAdapter(kiloAdapter(options), kiloFlavor, 'Kilo Code CLI (ACP)');
}
