import type { Adapter, LaunchContext } from '../../../core/adapter/index.ts';
import { cliAcpAdapter } from '../../protocols/acp/cli-acp-adapter.ts';
import type { CliAdapterOptions } from '../../shared/define-cli-adapter.ts';
import { opencodeAdapter } from './opencode-adapter.ts';
import { type OpenCodeFlavor, openCodePermission, opencodeFlavor } from './opencode-plan.ts';

/** The options of {@link opencodeAcpAdapter} and of the other OpenCode-style ACP modes: `command`, the executable. */
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
 * The permission config that leaves an OpenCode-style agent the run's MCP tools only (a served run
 * on the caller's tools): every built-in tool denied, which removes it from the model's list, and
 * the run's MCP server's tools (`agent-mux_<tool>`) allowed without asking here (the caller's policy
 * asks on GitHub).
 */
export const CALLER_TOOLS_PERMISSION: Readonly<Record<string, string>> = { '*': 'deny', 'agent-mux_*': 'allow' };

/**
 * `<program> acp` of an OpenCode-style CLI, from its headless adapter (executable, install, secrets,
 * session dir, auth check) and its flavor's names: inline config, merged over the user's and the
 * workspace's files, with permissions only (the run's MCP server comes through `session/new`).
 */
export function openCodeStyleAcpAdapter(
  cli: Adapter,
  flavor: OpenCodeFlavor,
  displayName: string,
  options: { servedOnCallerTools?: boolean } = {},
): Adapter {
  return cliAcpAdapter(cli, {
    id: `${cli.id}-acp`,
    displayName,
    args: ['acp'],
    needsTestedVersion: true,
    env: { ...flavor.env },
    capabilities: { sessionPersistence: 'sqlite' },
    // With the caller's tools only, the permission config (below) does the work: no arguments.
    ...(options.servedOnCallerTools ? { callerToolsArgs: [] } : {}),
    runEnv: (ctx) => {
      const permission = ctx.request.callerToolsOnly ? CALLER_TOOLS_PERMISSION : openCodeAcpPermission(ctx);
      const config = { permission, agent: { [flavor.defaultAgent]: { permission } } };
      return { [flavor.configContentEnv]: JSON.stringify(config) };
    },
  });
}

/**
 * OpenCode over ACP (`opencode acp`): its permission questions go to the run's approval channel.
 * Served for a GitHub run (caller-tools) it works with the run's MCP tools only
 * ({@link CALLER_TOOLS_PERMISSION}; checked live with OpenCode 1.18.33).
 */
export function opencodeAcpAdapter(options: OpenCodeAcpAdapterOptions = {}): Adapter {
  return openCodeStyleAcpAdapter(opencodeAdapter(options), opencodeFlavor, 'OpenCode (ACP)', {
    servedOnCallerTools: true,
  });
}
