import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import { type PermissionPolicy, ruleMatches } from '../../../core/tools/permission-policy.ts';
import { PlanTempDir } from '../../shared/plan-temp-dir.ts';
import { piBridgeLaunch } from '../pi/pi-bridge-extension.ts';
import { piRpcInput, piTakesMessages } from '../pi/pi-rpc.ts';

/** omp's built-in tool names (src/tools/builtin-names.ts in 18.2.3), for expanding globs in a policy. */
export const OMP_TOOLS = [
  'read',
  'bash',
  'edit',
  'ast_grep',
  'ast_edit',
  'ask',
  'debug',
  'eval',
  'github',
  'glob',
  'grep',
  'lsp',
  'checkpoint',
  'rewind',
  'context_notes',
  'new_context',
  'security_scan',
  'task',
  'hub',
  'todo',
  'web_search',
  'write',
  'memory_edit',
  'retain',
  'recall',
  'reflect',
  'learn',
  'manage_skill',
  'browser',
  'fetch',
] as const;

/** `--thinking` accepts off|minimal|low|medium|high|xhigh|max|auto: every effort maps one to one. */
export const ompThinking: Record<ThinkingEffort, string> = { low: 'low', medium: 'medium', high: 'high', max: 'max' };

const APPROVAL = { allow: 'allow', deny: 'deny', ask: 'prompt' } as const;

/**
 * The policy as an omp config overlay (`--config <file>`): `tools.approval.<tool>: allow|deny|prompt`
 * for every built-in tool a rule names (globs expanded over the built-in names; exact names kept, so
 * `mcp__…` and extension tools work too) and `tools.approvalMode` from the default: `allow` → `yolo`,
 * `ask`/`deny` → `always-ask`. omp has no way to ask in `--print` mode: a `prompt` decision fails
 * closed ("requires approval but no interactive UI available"), so `ask` behaves as `deny`.
 * Rules narrowed by `when` cannot be checked before the call: an `allow` one is skipped, the others
 * apply to the whole tool. Returns undefined when there is nothing to say.
 */
export function ompPolicyOverlay(
  policy: PermissionPolicy | undefined,
  options: { relayAsk?: boolean } = {},
): string | undefined {
  if (!policy) return undefined;
  // With the bridge extension, `ask` is relayed by its tool_call hook: omp itself must let it through.
  const ask = options.relayAsk ? 'allow' : APPROVAL.ask;
  const approval = new Map<string, string>();
  const names = new Set<string>(OMP_TOOLS);
  for (const rule of policy.rules ?? []) if (!/[*?[\]{}!]/.test(rule.tool)) names.add(rule.tool);
  for (const name of names) {
    for (const rule of policy.rules ?? []) {
      if (!ruleMatches({ ...rule, when: undefined }, name, {})) continue;
      if (rule.decision === 'allow' && rule.when !== undefined) continue;
      approval.set(name, rule.decision === 'ask' ? ask : APPROVAL[rule.decision]);
      break;
    }
  }
  const fallback = policy.default ?? 'ask';
  const mode = fallback === 'allow' || (fallback === 'ask' && options.relayAsk) ? 'yolo' : 'always-ask';
  const lines = ['tools:', `  approvalMode: ${mode}`];
  if (approval.size > 0) {
    lines.push('  approval:');
    for (const [name, decision] of approval) lines.push(`    ${JSON.stringify(name)}: ${decision}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface OmpPlanOptions {
  command: string;
}

/**
 * `omp --mode rpc --no-title --allow-home [flags]`: the prompt and users' messages mid-run as
 * commands on stdin, as pi's RPC mode takes them (pi-rpc.ts; omp 18.2.3 prints a `ready` frame
 * first). With files attached, `omp --mode json --print …` and the prompt on stdin (no messages
 * mid-run), as for pi. `--no-title` spares the extra model request for a session title; `--allow-home` keeps
 * omp in the requested cwd even when it is the home directory (omp would move to a temp dir).
 */
export function ompPlan(ctx: LaunchContext, options: OmpPlanOptions): SpawnPlan {
  const { request } = ctx;
  const rpc = piTakesMessages(ctx);
  const args = [...(rpc ? ['--mode', 'rpc'] : ['--mode', 'json', '--print']), '--no-title', '--allow-home'];
  if (request.model) args.push('--model', request.model);
  if (request.systemPrompt) args.push('--append-system-prompt', request.systemPrompt);
  if (request.thinkingEffort) args.push('--thinking', ompThinking[request.thinkingEffort]);
  if (request.resumeSessionId) args.push(request.fork ? '--fork' : '--resume', request.resumeSessionId);
  const env: Record<string, string> = {};
  const relay = Boolean(ctx.mcpUrl);
  const overlay = ompPolicyOverlay(ctx.policy, { relayAsk: relay });
  const temp = new PlanTempDir('agent-mux-omp-');
  if (overlay) {
    args.push('--config', temp.write('policy.yml', overlay));
  }
  if (relay) {
    // pi's bridge extension works in omp too (same ExtensionAPI): the run's MCP tools, relayed asks.
    const bridge = piBridgeLaunch(ctx, temp, { extraTools: OMP_TOOLS, fileName: 'agent-mux-bridge.ts' });
    args.push(...bridge.args);
    Object.assign(env, bridge.env);
  }
  for (const file of request.files ?? []) args.push(`@${file.path}`);
  return {
    command: options.command,
    args,
    cwd: request.cwd,
    env,
    ...(rpc ? piRpcInput(request.prompt) : { stdin: request.prompt }),
    protocol: 'json-lines',
    // The overlay's and the bridge's temp dir goes once the run is over.
    cleanup: temp.cleanup(),
  };
}
