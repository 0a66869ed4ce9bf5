import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import type { PermissionPolicy, PermissionRule } from '../../../core/tools/permission-policy.ts';
import { PlanTempDir } from '../../shared/plan-temp-dir.ts';
import { OPENCODE_MCP_SERVER } from './opencode-translator.ts';

/** What differs between OpenCode and its forks (Kilo) when planning a run. */
export interface OpenCodeFlavor {
  /** The executable (`opencode`, `kilo`). */
  command: string;
  /** The env var holding inline config JSON, merged over every config file (`OPENCODE_CONFIG_CONTENT`). */
  configContentEnv: string;
  /** Extra environment for every run (auto-update off, …). */
  env?: Record<string, string>;
  /** Prefix of temp dirs (system prompt file). */
  tempPrefix: string;
  /** The primary agent `run` uses by default (`build` in OpenCode, `code` in Kilo). */
  defaultAgent: string;
}

/**
 * A flavor named the way OpenCode and its forks name things: the executable `<name>`, inline config
 * in `<NAME>_CONFIG_CONTENT`, auto-update off through `<NAME>_DISABLE_AUTOUPDATE`.
 */
export function openCodeFlavorNamed(name: string, defaultAgent: string): OpenCodeFlavor {
  const NAME = name.toUpperCase();
  return {
    command: name,
    configContentEnv: `${NAME}_CONFIG_CONTENT`,
    env: { [`${NAME}_DISABLE_AUTOUPDATE`]: '1' },
    tempPrefix: `agent-mux-${name}-`,
    defaultAgent,
  };
}

export const opencodeFlavor: OpenCodeFlavor = openCodeFlavorNamed('opencode', 'build');

/**
 * `RunRequest.thinkingEffort` → `--variant`. Variants are per model in OpenCode (Anthropic: `high`,
 * `max`; OpenAI: `minimal`…`xhigh`; Google: `low`, `high`); an unknown variant is ignored by the CLI.
 */
export const openCodeVariant: Record<ThinkingEffort, string> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  max: 'max',
};

type Action = 'allow' | 'ask' | 'deny';
/** OpenCode's `permission` config: a tool (permission) name or glob → an action, or pattern → action. */
export type OpenCodePermission = Record<string, Action | Record<string, Action>>;

/**
 * The run's policy as OpenCode's `permission` config. OpenCode applies the last matching entry
 * (config order), our policy the first matching rule, so entries are written `*` (the default)
 * first and the rules in reverse. A rule's `when` on one argument becomes patterns on that tool
 * (`bash: {"rm *": "deny"}`; OpenCode matches `bash` patterns against the command and `edit`/`read`
 * patterns against the path). A `when` OpenCode cannot express (several arguments) is applied to the
 * whole tool for `deny`/`ask` and dropped for `allow`: erring toward caution.
 *
 * `ask` stays `ask`: `opencode run` cannot ask anyone, so it rejects such a call at run time and the
 * model is told (`permission requested: …; auto-rejecting` on stderr). `deny` removes the tool.
 */
export function openCodePermission(policy: PermissionPolicy | undefined): OpenCodePermission {
  const effective = policy ?? { default: 'ask' as const };
  const out: OpenCodePermission = { '*': effective.default ?? 'ask' };
  const rules = [...(effective.rules ?? [])].reverse();
  for (const rule of rules) {
    const patterns = rulePatterns(rule);
    if (patterns === null) continue;
    if (patterns === undefined) {
      delete out[rule.tool];
      out[rule.tool] = rule.decision;
      continue;
    }
    const existing = out[rule.tool];
    const entry: Record<string, Action> =
      typeof existing === 'object' ? existing : { '*': existing ?? effective.default ?? 'ask' };
    for (const pattern of patterns) {
      delete entry[pattern];
      entry[pattern] = rule.decision;
    }
    delete out[rule.tool];
    out[rule.tool] = entry;
  }
  return out;
}

/** undefined: the whole tool; null: the rule cannot be expressed and is dropped (an allow). */
function rulePatterns(rule: PermissionRule): string[] | undefined | null {
  if (!rule.when) return undefined;
  const entries = Object.entries(rule.when);
  if (entries.length === 1) {
    const [, globs] = entries[0] as [string, string | string[]];
    return typeof globs === 'string' ? [globs] : globs;
  }
  return rule.decision === 'allow' ? null : undefined;
}

/**
 * The inline config the plan hands the CLI: permissions, the run's MCP server, instructions, steps.
 *
 * The permission goes in twice. Top level, for every agent. And on the default agent
 * (`agent.<name>.permission`), whose rules the CLI applies after the top-level ones: config files
 * are deep-merged keeping the first file's key order, and rules are matched last-wins, so a tool key
 * that the global or project config already has (Kilo writes `permission.bash` into its global
 * config on first run) would stay before our `*` and lose to it. The agent-level copy is evaluated
 * last whatever the files say.
 */
export function openCodeConfig(
  ctx: LaunchContext,
  flavor: Pick<OpenCodeFlavor, 'defaultAgent'>,
  instructionsFile?: string,
): Record<string, unknown> {
  const permission = openCodePermission(ctx.policy);
  const config: Record<string, unknown> = { permission };
  const agent: Record<string, unknown> = { permission };
  if (ctx.mcpUrl) {
    config.mcp = {
      [OPENCODE_MCP_SERVER]: {
        type: 'remote',
        url: ctx.mcpUrl,
        enabled: true,
        oauth: false,
        ...(ctx.mcpToken ? { headers: { Authorization: `Bearer ${ctx.mcpToken}` } } : {}),
      },
    };
  }
  if (instructionsFile) config.instructions = [instructionsFile];
  // `steps`: the most agentic iterations of an agent before it must answer with text only.
  if (ctx.request.maxTurns !== undefined) agent.steps = Math.max(1, Math.floor(ctx.request.maxTurns));
  config.agent = { [flavor.defaultAgent]: agent };
  return config;
}

/**
 * `opencode run --format json --thinking --title [flags]`, the prompt on stdin (the CLI appends stdin
 * to the message when stdin is not a terminal; stdin is then closed, or the CLI would wait forever).
 * `--title` without a value names the session after the prompt instead of asking the model for a
 * title (one model request less). The config goes in through the inline-config env var, which
 * OpenCode merges over the global and project files, so the workspace's own `opencode.json`
 * cannot widen the run's permissions. A system prompt is written to a temp file listed in
 * `instructions` (OpenCode has no system prompt flag); `plan.cleanup` removes it.
 */
export async function openCodePlan(ctx: LaunchContext, flavor: OpenCodeFlavor): Promise<SpawnPlan> {
  const { request } = ctx;
  const args = ['run', '--format', 'json', '--thinking', '--title'];
  if (request.model) args.push('--model', request.model);
  if (request.resumeSessionId) {
    args.push('--session', request.resumeSessionId);
    if (request.fork) args.push('--fork');
  }
  if (request.thinkingEffort) args.push('--variant', openCodeVariant[request.thinkingEffort]);
  for (const file of request.files ?? []) args.push('--file', file.path);
  const temp = new PlanTempDir(flavor.tempPrefix);
  const instructions = request.systemPrompt ? temp.write('system-prompt.md', request.systemPrompt) : undefined;
  const plan: SpawnPlan = {
    command: flavor.command,
    args,
    cwd: request.cwd,
    env: {
      ...flavor.env,
      [flavor.configContentEnv]: JSON.stringify(openCodeConfig(ctx, flavor, instructions)),
    },
    stdin: request.prompt,
    protocol: 'json-lines',
  };
  const cleanup = temp.cleanup();
  if (cleanup) plan.cleanup = cleanup;
  return plan;
}
