import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import type { PermissionPolicy } from '../../../core/tools/permission-policy.ts';

/** The name the run's MCP server gets in Copilot's MCP config (and in its permission patterns). */
export const COPILOT_MCP_SERVER = 'agent-mux';

/** `--reasoning-effort` accepts none, minimal, low, medium, high, xhigh, max (1.0.102). */
const EFFORT: Record<ThinkingEffort, string> = { low: 'low', medium: 'medium', high: 'high', max: 'max' };

/** Where the plan asked Copilot to write its usage statistics, keyed by the run's context (read by the controller). */
export const usageFiles = new WeakMap<LaunchContext, string>();

/**
 * `copilot --output-format json` with the prompt on stdin (no argv length limit): the CLI reads
 * piped stdin as the prompt and runs non-interactively, exactly like `-p`.
 */
export function copilotPlan(command: string, ctx: LaunchContext): SpawnPlan {
  const { request } = ctx;
  // GitHub CLI's `gh copilot` launches the same Copilot CLI and passes the arguments on (not verified here).
  const viaGh = basename(command) === 'gh' || basename(command) === 'gh.exe';
  const usageFile = join(tmpdir(), `agent-mux-copilot-usage-${randomBytes(8).toString('hex')}.json`);
  usageFiles.set(ctx, usageFile);
  const args: string[] = [
    '--output-format',
    'json',
    '--stream',
    'on',
    '--no-color',
    '--no-auto-update',
    '--no-ask-user',
    '--usage-output-file',
    usageFile,
  ];
  if (request.model) args.push('--model', request.model);
  if (request.thinkingEffort) args.push('--reasoning-effort', EFFORT[request.thinkingEffort]);
  if (request.resumeSessionId) args.push(`--resume=${request.resumeSessionId}`);
  for (const file of request.files ?? []) args.push('--attachment', file.path);
  if (ctx.mcpUrl) args.push('--additional-mcp-config', JSON.stringify(mcpConfig(ctx)));
  args.push(...permissionArgs(ctx.policy));
  const env: Record<string, string> = { NO_COLOR: '1' };
  return {
    command,
    args: viaGh ? ['copilot', '--', ...args] : args,
    env,
    cwd: request.cwd,
    stdin: request.systemPrompt ? `${request.systemPrompt}\n\n${request.prompt}` : request.prompt,
    protocol: 'json-lines',
  };
}

/**
 * The run's MCP server as Copilot's `--additional-mcp-config` JSON (`mcpServers` map, streamable
 * HTTP with headers; `tools: ["*"]` exposes every tool). Passed inline, so no file is left behind.
 * The bearer token then sits in the argument list: the core redacts `mcpToken` from every event.
 */
export function mcpConfig(ctx: LaunchContext): unknown {
  return {
    mcpServers: {
      [COPILOT_MCP_SERVER]: {
        type: 'http',
        url: ctx.mcpUrl,
        ...(ctx.mcpToken ? { headers: { Authorization: `Bearer ${ctx.mcpToken}` } } : {}),
        tools: ['*'],
      },
    },
  };
}

/** Model-facing tool names → Copilot's permission kinds (`shell`, `write`) for --allow-tool/--deny-tool. */
const PERMISSION_KIND: Record<string, string> = {
  shell: 'shell',
  bash: 'shell',
  powershell: 'shell',
  Bash: 'shell',
  write: 'write',
  create: 'write',
  edit: 'write',
  Write: 'write',
  Edit: 'write',
};

/**
 * The run's policy as Copilot flags. Copilot has no run-time approval hook in `-p` mode: a tool that
 * needs permission and is not allowed is denied, never asked. So:
 * - default `allow` → `--allow-all-tools`; `ask`/`deny` → not (Copilot then denies what needs asking);
 * - a rule on `shell`/`bash`/`write`/`create`/`edit` → `--allow-tool`/`--deny-tool` with the permission
 *   kind; `kind(argument)` patterns (`shell(git:*)`, `agent-mux(tool)`) pass through as written;
 *   `mcp__<server>__<tool>` → `<server>(<tool>)`;
 * - `deny` on any other tool (`view`, `grep`, `glob`, …, which need no permission) → `--excluded-tools`;
 * - `ask` rules → treated as deny (the safe reading of "cannot ask"); rules with `when` narrow
 *   `shell` only when the command glob is `cmd` or `cmd *` (`shell(cmd)` / `shell(cmd:*)`), else they
 *   are skipped for allow and widened to the whole tool for deny/ask.
 * Denials take precedence over allows in Copilot, as in the policy's first-match order for the usual cases.
 */
export function permissionArgs(policy: PermissionPolicy | undefined): string[] {
  const args: string[] = [];
  const fallback = policy?.default ?? 'ask';
  let allowAll = fallback === 'allow';
  for (const rule of policy?.rules ?? []) {
    const allow = rule.decision === 'allow';
    if (rule.tool === '*') {
      if (!allow) allowAll = false;
      else if (rule.when === undefined) allowAll = true;
      continue;
    }
    const pattern = permissionPattern(rule.tool, rule.when, allow);
    if (pattern === undefined) continue;
    if (pattern.kind === 'permission') args.push(allow ? '--allow-tool' : '--deny-tool', pattern.value);
    else if (!allow) args.push('--excluded-tools', pattern.value);
  }
  return allowAll ? ['--allow-all-tools', ...args] : args;
}

type Pattern = { kind: 'permission' | 'tool'; value: string };

function permissionPattern(tool: string, when: Record<string, string | string[]> | undefined, allow: boolean) {
  if (/^[\w.-]+\(.*\)$/.test(tool)) return { kind: 'permission', value: tool } satisfies Pattern;
  const mcp = /^mcp__(.+?)__(.+)$/.exec(tool);
  if (mcp) return { kind: 'permission', value: `${mcp[1]}(${mcp[2]})` } satisfies Pattern;
  const kind = PERMISSION_KIND[tool];
  if (!kind) return when && allow ? undefined : ({ kind: 'tool', value: tool } satisfies Pattern);
  if (when === undefined) return { kind: 'permission', value: kind } satisfies Pattern;
  const narrowed = kind === 'shell' ? shellPattern(when) : undefined;
  if (narrowed) return { kind: 'permission', value: narrowed } satisfies Pattern;
  return allow ? undefined : ({ kind: 'permission', value: kind } satisfies Pattern);
}

function shellPattern(when: Record<string, string | string[]>): string | undefined {
  const keys = Object.keys(when);
  if (keys.length !== 1 || keys[0] !== 'command') return undefined;
  const glob = when.command;
  if (typeof glob !== 'string') return undefined;
  const prefix = /^([\w./-]+(?: [\w./-]+)?) \*$/.exec(glob);
  if (prefix) return `shell(${prefix[1]}:*)`;
  if (/^[\w./-]+(?: [\w./-]+)?$/.test(glob)) return `shell(${glob})`;
  return undefined;
}
