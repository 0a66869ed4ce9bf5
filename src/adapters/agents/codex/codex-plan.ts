import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import type { PermissionDecision, PermissionPolicy } from '../../../core/tools/permission-policy.ts';
import { decideWithoutArguments, type ToolAliases } from '../../../core/tools/tool-aliases.ts';
import { codexAppServerOpening, codexTurnInput } from './codex-app-server.ts';
import { codexPatchTool, codexShellTool } from './codex-translator.ts';

/** Codex's sandbox modes (`-s/--sandbox`). */
export type CodexSandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

export interface CodexPlanOptions {
  /** The executable. Default `codex`. */
  command?: string;
  /**
   * The sandbox when the policy allows the shell tool. Default `workspace-write` (Codex's own
   * Landlock/seccomp sandbox: writes inside the workspace, no network). `danger-full-access` for
   * runners that are already isolated, or hosts where Codex's sandbox cannot start.
   */
  sandbox?: CodexSandboxMode;
}

/** The MCP server name the run's tool host gets in Codex (`mcp_servers.<name>`). */
export const codexMcpServerName = 'agent_mux';
/** The environment variable that carries the MCP bearer token (Codex reads it: `bearer_token_env_var`). */
export const codexMcpTokenEnv = 'AGENT_MUX_MCP_TOKEN';

/** `RunRequest.thinkingEffort` → `model_reasoning_effort` (Codex 0.169: none|minimal|low|medium|high|xhigh). */
export const codexReasoningEffort: Record<ThinkingEffort, string> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  max: 'xhigh',
};

/** A TOML basic string (JSON's escapes are a subset of TOML's, and JSON never writes `\/`). */
const toml = (value: string): string => JSON.stringify(value);

/** `-c key=value`, the value parsed as TOML by Codex. */
const config = (key: string, value: string): string[] => ['-c', `${key}=${value}`];

export interface CodexPermissions {
  /** The approval policy. Nobody sits at a headless run to answer Codex, so always `never`. */
  approval: 'never';
  sandbox: CodexSandboxMode;
  /** `--disable shell_tool`: the model gets no shell at all. */
  disableShell: boolean;
  /** Why the policy made Codex read-only, for the run's user; absent when it did not. */
  notice?: string;
}

/**
 * Codex's shell under every name a policy may use: `exec_command` (what Codex 0.169 calls it and
 * what agent-mux shows), `shell` and `local_shell` (its names in older Codex releases and the
 * Responses API). Rules naming any of them apply to the one shell tool.
 */
export const codexShellAliases: ToolAliases = { name: codexShellTool, aliases: ['shell', 'local_shell'] };
/** Codex's patch tool (`file_change` items); no other name. */
export const codexPatchAliases: ToolAliases = { name: codexPatchTool, aliases: [] };

/**
 * Maps the run's policy onto what Codex can enforce under approval policy `never` (approval requests
 * are refused: nobody can answer a headless run), having no per-tool allow/deny list for its own
 * tools, so, with the shell's decision taken once over all its names (the first matching rule wins):
 * - shell `deny` (a rule without `when`, or `default: 'deny'`) → `--disable shell_tool` and a
 *   read-only sandbox;
 * - shell `ask` (or a deny/ask rule that narrows by arguments, which Codex cannot check) → the
 *   shell stays but runs in the `read-only` sandbox: commands that would write fail and the model
 *   is told;
 * - `apply_patch` denied or asked → `read-only` sandbox (patches outside it are refused under `-a never`);
 * - otherwise the configured sandbox (default `workspace-write`).
 * Each read-only case comes with a `notice` saying why. MCP tools of the run's server are checked
 * by the tool host itself under the same policy.
 */
export function codexPermissions(policy: PermissionPolicy | undefined, sandbox: CodexSandboxMode): CodexPermissions {
  const effective: PermissionPolicy = policy ?? { default: 'ask' };
  const shell = decideWithoutArguments(effective, codexShellAliases);
  const patch = decideWithoutArguments(effective, codexPatchAliases);
  if (shell === 'deny') {
    return {
      approval: 'never',
      sandbox: 'read-only',
      disableShell: true,
      notice: `The policy made Codex read-only: it denies the shell (\`${codexShellTool}\`), so Codex runs without one and cannot write files.`,
    };
  }
  const why =
    shell === 'ask'
      ? askReason(effective, codexShellAliases)
      : patch !== 'allow'
        ? askReason(effective, codexPatchAliases, patch)
        : undefined;
  if (why) {
    return {
      approval: 'never',
      sandbox: 'read-only',
      disableShell: false,
      notice: `The policy made Codex read-only: ${why}, and Codex cannot ask during a run.`,
    };
  }
  return { approval: 'never', sandbox, disableShell: false };
}

/** `` `exec_command` is `ask` `` or, when only rules on arguments made it so, says that. */
function askReason(policy: PermissionPolicy, tool: ToolAliases, decision: PermissionDecision = 'ask'): string {
  const plain = decideWithoutArguments(
    { ...policy, rules: (policy.rules ?? []).filter((rule) => rule.when === undefined) },
    tool,
  );
  return plain === 'allow'
    ? `\`${tool.name}\` has \`ask\` or \`deny\` rules on its arguments, which Codex cannot check`
    : `\`${tool.name}\` is \`${decision}\``;
}

/**
 * `codex app-server [-c …] [--disable shell_tool]`, JSON-RPC on stdin and stdout (codex-app-server.ts):
 * the thread (`thread/start`, or `thread/resume` / `thread/fork` of `resumeSessionId`) with the
 * sandbox, the model and approval policy `never`, then one turn with the prompt; stdin stays open
 * for users' messages mid-turn (`turn/steer`) until the last turn ends. Everything else is a `-c`
 * override: nothing is written to the user's config.
 */
export function codexPlan(ctx: LaunchContext, options: CodexPlanOptions = {}): SpawnPlan {
  const { request } = ctx;
  const permissions = codexPermissions(ctx.policy, options.sandbox ?? 'workspace-write');
  const args: string[] = ['app-server'];
  if (permissions.disableShell) args.push('--disable', 'shell_tool');
  if (request.thinkingEffort)
    args.push(...config('model_reasoning_effort', codexReasoningEffort[request.thinkingEffort]));
  if (request.systemPrompt) args.push(...config('developer_instructions', toml(request.systemPrompt)));
  const env: Record<string, string> = {};
  if (ctx.mcpUrl) {
    const server = `mcp_servers.${codexMcpServerName}`;
    args.push(...config(`${server}.url`, toml(ctx.mcpUrl)));
    if (ctx.mcpToken) {
      args.push(...config(`${server}.bearer_token_env_var`, toml(codexMcpTokenEnv)));
      env[codexMcpTokenEnv] = ctx.mcpToken;
    }
    // The tool host applies the run's policy (and asks) itself; Codex must not refuse the calls first.
    args.push(...config(`${server}.default_tools_approval_mode`, toml('approve')));
  }
  return {
    command: options.command ?? 'codex',
    args,
    env,
    cwd: request.cwd,
    stdin: codexAppServerOpening(ctx, { sandbox: permissions.sandbox, model: request.model }),
    keepStdinOpen: true,
    protocol: 'json-lines',
    ...(permissions.notice ? { notices: [{ code: 'read_only' as const, message: permissions.notice }] } : {}),
    ...(permissions.sandbox === 'danger-full-access' ? {} : { sandboxProbe: CODEX_SANDBOX_PROBE }),
  };
}

/** The first turn's input: the prompt, non-image files named in it, and image files as `localImage`. */
export function codexFirstTurnInput(ctx: LaunchContext): Record<string, unknown>[] {
  const files = ctx.request.files ?? [];
  const images = files.filter((f) => f.mimeType?.startsWith('image/')).map((f) => f.path);
  return codexTurnInput(promptWithFiles(ctx.request.prompt, files), images);
}

/**
 * Codex's own sandbox, probed as Codex runs it (`codex sandbox -- true`: 0, or bubblewrap's error,
 * e.g. `setting up uid map: Permission denied` where user namespaces are refused).
 */
export const CODEX_SANDBOX_PROBE = {
  args: ['sandbox', '--', 'true'],
  what: 'Codex’s own sandbox',
  fix: 'Every command Codex sandboxes will fail. Allow unprivileged user namespaces on this host (Ubuntu 24.04: kernel.apparmor_restrict_unprivileged_userns=0), or give the adapter `sandbox: danger-full-access` where the machine is isolated otherwise',
} as const;

/** Non-image files are named in the prompt (Codex reads them itself with its tools). */
function promptWithFiles(prompt: string, files: LaunchContext['request']['files']): string {
  const others = (files ?? []).filter((f) => !f.mimeType?.startsWith('image/'));
  if (others.length === 0) return prompt;
  return `${prompt}\n\nAttached files:\n${others.map((f) => `- ${f.name}: ${f.path}`).join('\n')}`;
}
