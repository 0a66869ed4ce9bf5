import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LaunchContext, SpawnPlan, ThinkingEffort } from '../../../core/adapter/index.ts';
import type { PermissionPolicy } from '../../../core/tools/permission-policy.ts';

/** `--reasoning` levels hermes accepts: none, minimal, low, medium, high, xhigh, max, ultra. */
export const hermesReasoning: Record<ThinkingEffort, string> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  max: 'max',
};

/** Hermes's home: `HERMES_HOME`, else `~/.hermes`. */
export function hermesHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.HERMES_HOME || join(env.HOME || homedir(), '.hermes');
}

/**
 * Core toolsets and the tools in them (docs: reference/toolsets-reference). Used to drop the
 * toolsets that hold a denied tool: hermes selects tools by toolset (`-t a,b,c`), not by name.
 */
export const HERMES_TOOLSETS: Record<string, readonly string[]> = {
  terminal: ['terminal', 'process'],
  file: ['read_file', 'write_file', 'patch', 'search_files'],
  web: ['web_search', 'web_extract'],
  browser: ['browser_*', 'web_search'],
  vision: ['vision_analyze'],
  skills: ['skills_list', 'skill_view', 'skill_manage'],
  memory: ['memory'],
  session_search: ['session_search'],
  todo: ['todo'],
  clarify: ['clarify'],
  code_execution: ['execute_code'],
  delegation: ['delegate_task'],
  cronjob: ['cronjob'],
};

/** Hermes's tools that run commands: its terminal, processes, code execution and sub-agents. */
const COMMAND_TOOLS = ['terminal', 'process', 'execute_code', 'delegate_task'] as const;

/**
 * A policy's tool names (agent-mux's, docs/repo-config.md: `shell`, `write_file`, …, and other
 * agents' names for the same tools) as hermes's tools. A rule on any command tool holds for all of
 * them: denying `terminal` while `execute_code` or `delegate_task` stays would still run commands.
 */
const HERMES_ALIASES: Record<string, readonly string[]> = {
  shell: COMMAND_TOOLS,
  bash: COMMAND_TOOLS,
  Bash: COMMAND_TOOLS,
  exec_command: COMMAND_TOOLS,
  run_shell_command: COMMAND_TOOLS,
  execute: COMMAND_TOOLS,
  ...Object.fromEntries(COMMAND_TOOLS.map((tool) => [tool, COMMAND_TOOLS])),
  write_file: ['write_file', 'patch'],
  edit: ['write_file', 'patch'],
  patch: ['write_file', 'patch'],
  Write: ['write_file', 'patch'],
  Edit: ['write_file', 'patch'],
  read_file: ['read_file', 'search_files'],
};

/** A rule's tool as the hermes tools it covers (itself when hermes has no other name for it). */
export function hermesToolsOf(tool: string): readonly string[] {
  return HERMES_ALIASES[tool] ?? [tool];
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
}

function overlaps(ruleTool: string, toolGlob: string): boolean {
  const rule = globToRegExp(ruleTool);
  const tool = globToRegExp(toolGlob);
  return rule.test(toolGlob.replace(/\*/g, 'x')) || tool.test(ruleTool.replace(/\*/g, 'x'));
}

/**
 * The policy as hermes flags. `--yolo` (skip hermes's dangerous-command prompts) only when the policy
 * lets every command tool run without asking; a deny or ask of any tool (under any of its names,
 * `hermesToolsOf`) drops its whole toolset via `-t` (hermes cannot ask anyone in `--format
 * stream-json` runs, so `ask` is treated as deny).
 */
export function hermesPermissionArgs(policy: PermissionPolicy | undefined): string[] {
  if (!policy) return [];
  const rules = policy.rules ?? [];
  const fallback = policy.default ?? 'ask';
  const blocked = rules.filter((r) => r.decision !== 'allow').flatMap((r) => hermesToolsOf(r.tool));
  const allowed = rules
    .filter((r) => r.decision === 'allow' && r.when === undefined)
    .flatMap((r) => hermesToolsOf(r.tool));
  const toolsets = Object.entries(HERMES_TOOLSETS)
    .filter(([, tools]) =>
      fallback === 'allow'
        ? !tools.some((t) => blocked.some((b) => overlaps(b, t)))
        : tools.every((t) => allowed.some((a) => overlaps(a, t))) &&
          !tools.some((t) => blocked.some((b) => overlaps(b, t))),
    )
    .map(([name]) => name);
  const args: string[] = [];
  const all = Object.keys(HERMES_TOOLSETS);
  if (toolsets.length !== all.length) args.push('--toolsets', toolsets.length > 0 ? toolsets.join(',') : 'none');
  // Every command-running toolset on and nothing about commands blocked: only then hermes's own check goes.
  const commands = ['terminal', 'code_execution', 'delegation'];
  if (commands.every((name) => toolsets.includes(name)) && fallback === 'allow') args.push('--yolo');
  return args;
}

/**
 * `hermes chat --query-file - --format stream-json --source tool …`, prompt on stdin.
 * `--format stream-json` implies quiet single-query mode; `--source tool` keeps agent-mux runs out of
 * the user's session lists.
 */
export function hermesPlan(ctx: LaunchContext, command: string): SpawnPlan {
  const { request } = ctx;
  const args = ['chat', '--query-file', '-', '--format', 'stream-json', '--source', 'tool'];
  if (request.model) args.push('--model', request.model);
  if (request.maxTurns !== undefined) args.push('--max-turns', String(request.maxTurns));
  if (request.thinkingEffort) args.push('--reasoning', hermesReasoning[request.thinkingEffort]);
  if (request.resumeSessionId) args.push('--resume', request.resumeSessionId);
  args.push(...hermesPermissionArgs(ctx.policy));
  // No system-prompt flag: the instructions travel ahead of the prompt.
  const stdin = request.systemPrompt ? `${request.systemPrompt}\n\n---\n\n${request.prompt}` : request.prompt;
  return { command, args, cwd: request.cwd, stdin, protocol: 'json-lines' };
}
