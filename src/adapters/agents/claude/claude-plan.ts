import { dirname, relative } from 'node:path';
import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import type { PermissionPolicy, PermissionRule } from '../../../core/tools/permission-policy.ts';
import { PlanTempDir } from '../../shared/plan-temp-dir.ts';

/** The name the run's MCP server gets in `--mcp-config`: its tools are `mcp__agent-mux__<tool>`. */
export const CLAUDE_MCP_SERVER = 'agent-mux';
export const CLAUDE_PERMISSION_PROMPT_TOOL = `mcp__${CLAUDE_MCP_SERVER}__approval_prompt`;

/**
 * Claude Code's built-in tools (2.1.330's `system/init` `tools`), for allowing "everything but"
 * when a policy allows by default yet asks for some tools.
 */
export const CLAUDE_BUILTIN_TOOLS = [
  'Task',
  'Bash',
  'Glob',
  'Grep',
  'Read',
  'Edit',
  'Write',
  'NotebookEdit',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'Skill',
  'ToolSearch',
  'TaskStop',
  'SendMessage',
  'ListAgents',
  'Monitor',
  'CronCreate',
  'CronDelete',
  'CronList',
  'ScheduleWakeup',
  'EnterWorktree',
  'ExitWorktree',
  'ReportFindings',
  'Workflow',
] as const;

/**
 * Thinking effort as Claude Code 2.1 really takes it (a `--thinking-budget` flag, sometimes documented, does not
 * exist): `--effort` sets `output_config.effort` on models with adaptive thinking, and
 * `MAX_THINKING_TOKENS` sets `thinking.budget_tokens` on models with budgeted thinking (clamped by the
 * CLI to `max_tokens - 1`). Both are given; each model uses the one it understands. `max` leaves the
 * budget at the CLI's own maximum.
 */
export const claudeThinking: Record<ThinkingEffort, { effort: string; budgetTokens?: number }> = {
  low: { effort: 'low', budgetTokens: 1024 },
  medium: { effort: 'medium', budgetTokens: 8192 },
  high: { effort: 'high', budgetTokens: 32_768 },
  max: { effort: 'max' },
};

export interface ClaudePlanOptions {
  command: string;
  /** Returns true when running as root (Claude Code refuses bypassPermissions as root unless IS_SANDBOX=1). */
  isRoot?: () => boolean;
}

/**
 * `claude -p --input-format stream-json --output-format stream-json --verbose --include-partial-messages
 * --replay-user-messages [flags]`, the prompt on stdin as the first user message. Stdin stays open:
 * a user's message during the run (`RunHandle.steer`) is another such line, which Claude Code
 * 2.1.330 takes at its next step (after the tool call in flight) and echoes back on stdout where it
 * took it; the core closes stdin at the `result` that leaves nothing waiting, and Claude Code exits.
 * Config files (the MCP server with its bearer token) go to a temp dir that `cleanup` removes.
 */
export async function claudePlan(ctx: LaunchContext, options: ClaudePlanOptions): Promise<SpawnPlan> {
  const { request } = ctx;
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--replay-user-messages',
  ];
  const env: Record<string, string> = {
    // No telemetry, error reporting or auto-update in a headless run (a run's env may override it).
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  if (request.model) args.push('--model', request.model);
  if (request.systemPrompt) args.push('--append-system-prompt', request.systemPrompt);
  if (request.maxTurns !== undefined) args.push('--max-turns', String(request.maxTurns));
  if (request.resumeSessionId) {
    args.push('--resume', request.resumeSessionId);
    if (request.fork) args.push('--fork-session');
  }
  if (request.thinkingEffort) {
    const thinking = claudeThinking[request.thinkingEffort];
    args.push('--effort', thinking.effort);
    if (thinking.budgetTokens !== undefined) env.MAX_THINKING_TOKENS = String(thinking.budgetTokens);
  }
  const outside = new Set<string>();
  for (const file of request.files ?? []) {
    const dir = dirname(file.path);
    const rel = relative(request.cwd, dir);
    if (rel.startsWith('..') || rel.startsWith('/')) outside.add(dir);
  }
  for (const dir of outside) args.push('--add-dir', dir);

  // Working on the caller's checkout (served remotely): no built-in tool at all (`--tools ""`), no
  // MCP server of this host's configuration; the run's MCP tools, relayed to the caller, are its only ones.
  // The caller's policy decides every call (asked on GitHub there): here they are all allowed.
  if (request.callerToolsOnly) {
    args.push('--tools', '', '--strict-mcp-config', '--allowedTools', `mcp__${CLAUDE_MCP_SERVER}`);
  }
  const temp = new PlanTempDir('agent-mux-claude-');
  const hasMcp = ctx.mcpUrl !== '';
  if (hasMcp) {
    const server: Record<string, unknown> = { type: 'http', url: ctx.mcpUrl };
    if (ctx.mcpToken) server.headers = { Authorization: `Bearer ${ctx.mcpToken}` };
    args.push('--mcp-config', temp.writeJson('mcp.json', { mcpServers: { [CLAUDE_MCP_SERVER]: server } }));
  }
  const permissions = claudePermissionArgs(ctx.policy, {
    promptTool: hasMcp && ctx.mcpApprovalPrompt === true,
    isRoot: options.isRoot?.() ?? isRoot(),
  });
  args.push(...permissions.args);
  Object.assign(env, permissions.env);

  return {
    command: options.command,
    args,
    env,
    cwd: request.cwd,
    stdin: `${JSON.stringify(claudeUserMessage(withFiles(request.prompt, request.files)))}\n`,
    keepStdinOpen: true,
    input: { message: claudeUserMessage },
    protocol: 'json-lines',
    cleanup: temp.cleanup(),
  };
}

/** A user message on Claude Code's stream-json input. */
export function claudeUserMessage(text: string): unknown {
  return { type: 'user', message: { role: 'user', content: [{ type: 'text', text }] } };
}

function withFiles(prompt: string, files: LaunchContext['request']['files']): string {
  if (!files || files.length === 0) return prompt;
  const list = files.map((f) => `- ${f.name}: ${f.path}${f.mimeType ? ` (${f.mimeType})` : ''}`).join('\n');
  return `${prompt}\n\nAttached files (read them from these paths):\n${list}`;
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** Whether a glob names more than one tool (beyond Claude's own `mcp__<server>` form). */
const hasGlob = (pattern: string) => /[*?[\]{}!]/.test(pattern);

/** Input keys Claude Code's permission rules can match: `Bash(<command glob>)`, `Read(<path glob>)`, … */
const RULE_CONTENT_KEYS: Record<string, readonly string[]> = {
  Bash: ['command'],
  Read: ['file_path', 'path'],
  Edit: ['file_path', 'path'],
  Write: ['file_path', 'path'],
  NotebookEdit: ['notebook_path', 'file_path', 'path'],
  Glob: ['path'],
  Grep: ['path'],
};

/**
 * One policy rule as Claude Code permission rules (`Bash`, `Bash(git *)`, `mcp__github`), or
 * undefined when Claude's rule syntax cannot say it (other globs on tool names, other arguments).
 */
export function toClaudeRules(rule: PermissionRule): string[] | undefined {
  let tool = rule.tool;
  const server = /^mcp__([^*?[\]{}!]+)__\*$/.exec(tool);
  if (server) tool = `mcp__${server[1]}`;
  else if (hasGlob(tool)) return undefined;
  if (!rule.when) return [tool];
  const entries = Object.entries(rule.when);
  const keys = RULE_CONTENT_KEYS[tool];
  if (!keys || entries.length !== 1) return undefined;
  const [key, patterns] = entries[0] as [string, string | string[]];
  if (!keys.includes(key)) return undefined;
  return (typeof patterns === 'string' ? [patterns] : patterns).map((p) => `${tool}(${p})`);
}

export interface ClaudePermissionArgs {
  args: string[];
  env: Record<string, string>;
  /** What the mapping had to approximate, for docs and debugging. */
  notes: string[];
}

/**
 * Maps the run's policy onto Claude Code's own permission flags (first match wins in the policy;
 * Claude checks deny, then ask, then allow, so rules are mapped in order and a rule after an
 * unconditional `*` rule is dropped):
 *
 * - `allow` rules → `--allowedTools`, `deny` rules → `--disallowedTools` (a bare tool name removes
 *   the tool from the model's tool list). Rules Claude's syntax cannot say: an `allow` is dropped
 *   (the default then decides), an `ask`/`deny` makes the tool ask.
 * - default `allow` and nothing to ask → `--permission-mode bypassPermissions` (as root with
 *   `IS_SANDBOX=1`, which Claude Code requires there).
 * - something to ask (`ask` default or rules) with the run's MCP server → `--permission-prompt-tool
 *   mcp__agent-mux__approval_prompt` (the run's approvals answer), the built-in tools not asked about
 *   allowed up front when the default is `allow`. Without an MCP server nobody can answer: `-p` denies
 *   what would prompt, and a default-`allow` policy denies its `ask` tools outright.
 * - default `deny` → `--permission-mode dontAsk` (only pre-allowed tools run).
 * - the run's own MCP tools (`mcp__agent-mux`) are allowed: the tool host applies the policy to them.
 * - no policy: Claude Code's defaults in `-p` (tools that would prompt are denied), plus the prompt tool.
 */
export function claudePermissionArgs(
  policy: PermissionPolicy | undefined,
  options: { promptTool: boolean; isRoot: boolean },
): ClaudePermissionArgs {
  const args: string[] = [];
  const env: Record<string, string> = {};
  const notes: string[] = [];
  const allow: string[] = [];
  const deny: string[] = [];
  const askTools = new Set<string>();
  let fallback = policy?.default ?? 'ask';
  if (options.promptTool) allow.push(`mcp__${CLAUDE_MCP_SERVER}`);
  for (const rule of policy?.rules ?? []) {
    if (rule.tool === '*' && !rule.when) {
      fallback = rule.decision;
      notes.push('an unconditional "*" rule ends the rules: it becomes the default');
      break;
    }
    const mapped = toClaudeRules(rule);
    if (!mapped) {
      if (rule.decision === 'allow') notes.push(`allow rule for ${rule.tool} cannot be expressed: dropped`);
      else {
        askTools.add(rule.tool);
        notes.push(`${rule.decision} rule for ${rule.tool} cannot be expressed: the tool asks`);
      }
      continue;
    }
    if (rule.decision === 'allow') allow.push(...mapped);
    else if (rule.decision === 'deny') deny.push(...mapped);
    else askTools.add(rule.tool);
  }

  if (policy && fallback === 'allow' && askTools.size === 0) {
    args.push('--permission-mode', 'bypassPermissions');
    if (options.isRoot) env.IS_SANDBOX = '1';
  } else if (policy && fallback === 'allow' && !options.promptTool) {
    // Nobody can answer: what the policy would ask about is denied, the rest bypasses.
    args.push('--permission-mode', 'bypassPermissions');
    if (options.isRoot) env.IS_SANDBOX = '1';
    for (const tool of askTools) if (!hasGlob(tool)) deny.push(tool);
    notes.push('no MCP server to ask through: ask rules deny');
  } else if (policy && fallback === 'allow') {
    for (const tool of CLAUDE_BUILTIN_TOOLS) {
      if (![...askTools].some((t) => t === tool || hasGlob(t))) allow.push(tool);
    }
  } else if (fallback === 'deny') {
    args.push('--permission-mode', 'dontAsk');
  }
  if (fallback !== 'deny' && options.promptTool && !args.includes('bypassPermissions')) {
    args.push('--permission-prompt-tool', CLAUDE_PERMISSION_PROMPT_TOOL);
  }
  // `--allowedTools a b` is variadic: each list is one comma-separated value so that nothing after it is eaten.
  if (allow.length > 0) args.push('--allowedTools', unique(allow).join(','));
  if (deny.length > 0) args.push('--disallowedTools', unique(deny).join(','));
  return { args, env, notes };
}

const unique = (values: string[]) => [...new Set(values)];
