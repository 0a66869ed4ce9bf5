import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import { type PermissionPolicy, ruleMatches } from '../../../core/tools/permission-policy.ts';
import { PlanTempDir } from '../../shared/plan-temp-dir.ts';
import { piBridgeLaunch } from './pi-bridge-extension.ts';
import { piRpcInput, piTakesMessages } from './pi-rpc.ts';
import { PI_DEFAULT_TOOLS, PI_TOOLS } from './pi-tools.ts';

export { PI_DEFAULT_TOOLS, PI_TOOLS } from './pi-tools.ts';

/** `--thinking` accepts off|minimal|low|medium|high|xhigh; `max` maps to pi's highest, `xhigh`. */
export const piThinking: Record<ThinkingEffort, string> = { low: 'low', medium: 'medium', high: 'high', max: 'xhigh' };

export interface PiPlanOptions {
  command: string;
  thinking: Record<ThinkingEffort, string>;
}

/**
 * `pi --mode rpc [flags]`: the prompt and, while the agent runs, users' messages as commands on
 * stdin (pi-rpc.ts); the same events as `--mode json` on stdout, with the commands' responses. With
 * files to attach, `pi --mode json -p [flags] @file…` (RPC mode refuses `@file` arguments): the
 * prompt on stdin, closed after it, and no messages mid-run.
 */
export function piArgs(ctx: LaunchContext, thinking: Record<ThinkingEffort, string>): string[] {
  const { request } = ctx;
  const args = piTakesMessages(ctx) ? ['--mode', 'rpc'] : ['--mode', 'json', '--print'];
  if (request.model) args.push('--model', request.model);
  if (request.systemPrompt) args.push('--append-system-prompt', request.systemPrompt);
  if (request.thinkingEffort) args.push('--thinking', thinking[request.thinkingEffort]);
  if (request.resumeSessionId) args.push(request.fork ? '--fork' : '--session', request.resumeSessionId);
  return args;
}

/**
 * With the run's MCP server (`ctx.mcpUrl`), a generated bridge extension (`--extension`, in a temp
 * dir `cleanup` removes) registers the server's tools and enforces the policy per call, asking the
 * server's `approval_prompt` for `ask`. Without it, the policy becomes the `--tools` allowlist.
 */
export function piPlan(ctx: LaunchContext, options: PiPlanOptions): SpawnPlan {
  const args = piArgs(ctx, options.thinking);
  // No update check or other startup network calls in a headless run.
  const env: Record<string, string> = { PI_OFFLINE: '1' };
  const temp = new PlanTempDir('agent-mux-pi-');
  if (ctx.request.callerToolsOnly) {
    // Working on the caller's checkout: pi's own read/bash/edit/write are off, no extension of this
    // host is loaded, and the bridge gives it the run's (relayed) tools; without them, no tools at all.
    args.push('--no-builtin-tools', '--no-extensions');
    if (ctx.mcpUrl) {
      const bridge = piBridgeLaunch(ctx, temp);
      args.push(...bridge.args);
      Object.assign(env, bridge.env);
    } else {
      args.push('--no-tools');
    }
  } else if (ctx.mcpUrl) {
    const bridge = piBridgeLaunch(ctx, temp);
    args.push(...bridge.args);
    Object.assign(env, bridge.env);
  } else {
    args.push(...piToolArgs(ctx.policy));
  }
  // Files last, as positional `@path` arguments after every flag.
  for (const file of ctx.request.files ?? []) args.push(`@${file.path}`);
  const io = piTakesMessages(ctx) ? piRpcInput(ctx.request.prompt) : { stdin: ctx.request.prompt };
  return {
    command: options.command,
    args,
    cwd: ctx.request.cwd,
    env,
    ...io,
    protocol: 'json-lines',
    cleanup: temp.cleanup(),
  };
}

/**
 * pi has no permission prompts and no per-call hook outside extensions: a policy becomes the
 * `--tools` allowlist. A tool is enabled when its first matching rule (or the default) allows it;
 * `deny` and `ask` (pi cannot ask at run time) both disable it, as does a rule narrowed by `when`
 * that is not `allow` (its arguments cannot be checked before the call). No policy: pi's defaults.
 */
export function piToolArgs(policy: PermissionPolicy | undefined): string[] {
  if (!policy) return [];
  const enabled = PI_TOOLS.filter((tool) =>
    allowedByPolicy(policy, tool, (PI_DEFAULT_TOOLS as readonly string[]).includes(tool)),
  );
  if (enabled.length === 0) return ['--no-tools'];
  const same = enabled.length === PI_DEFAULT_TOOLS.length && PI_DEFAULT_TOOLS.every((t) => enabled.includes(t));
  return same ? [] : ['--tools', enabled.join(',')];
}

/**
 * Whether a tool may be enabled as a whole. Tools off by default (`grep`, `find`, `ls`) are only
 * turned on by a rule that names them, never by `default: 'allow'`.
 */
export function allowedByPolicy(policy: PermissionPolicy, tool: string, onByDefault: boolean): boolean {
  for (const rule of policy.rules ?? []) {
    if (!ruleMatches({ ...rule, when: undefined }, tool, {})) continue;
    if (rule.decision === 'allow' && rule.when !== undefined) continue;
    if (rule.decision !== 'allow') return false;
    return onByDefault || rule.tool === tool;
  }
  return onByDefault && (policy.default ?? 'ask') === 'allow';
}
