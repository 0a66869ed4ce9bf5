import type { LiveCaseName } from '../live-spec.ts';

/** What the fake model answers to one request, decided from the case and the request alone. */
export type Reply =
  | { kind: 'text'; text: string }
  | {
      kind: 'tool';
      name: string;
      args: Record<string, unknown>;
      callId: string;
      /** The namespace of a tool found by a search (Codex's MCP tools: `mcp__<server>`). */
      namespace?: string;
    }
  | { kind: 'error'; status: 401 | 429 };

export interface ToolInfo {
  name: string;
  /** JSON Schema of the tool's input, when the request gave one. */
  schema?: Record<string, unknown>;
  /** A provider-native tool without a schema (OpenAI Responses `local_shell`). */
  native?: string;
}

export const MARKER_COMMAND = 'echo agent-mux-live';
export const PLAIN_TEXT = 'Hello from the fake model. The answer is 42.';
export const AFTER_TOOL_TEXT = 'The command ran and printed agent-mux-live. Done.';
export const NO_SHELL_TEXT = 'I have no shell tool here, so I answer directly: agent-mux-live.';

const SHELL_NAMES = [
  'Bash',
  'bash',
  'shell',
  'run_shell_command',
  'exec_command',
  'shell_command',
  'local_shell',
  'terminal',
  'run_terminal_cmd',
  'execute_command',
  'exec',
];

/** The tool a model would use to run `echo …`: a known shell tool's name first, then any name that looks like one. */
export function pickShellTool(tools: readonly ToolInfo[]): ToolInfo | undefined {
  for (const name of SHELL_NAMES) {
    const tool = tools.find((t) => t.name === name);
    if (tool) return tool;
  }
  return tools.find((t) => /bash|shell|command|exec|terminal/i.test(t.name));
}

/** Arguments that satisfy a shell tool's schema: the command as a string or an argv array, plus required strings. */
/** What the tool cases ask the shell to do: the command, and arguments to add where the tool's schema has them. */
export interface ShellCall {
  command?: string;
  /** E.g. Codex's `sandbox_permissions: "require_escalated"`, which a model sets to ask for a write. */
  extraArgs?: Record<string, unknown>;
  /**
   * What a real model does when its sandbox refuses the command: it calls again with these
   * arguments added (Codex: `sandbox_permissions: "require_escalated"` and a `justification`).
   * Used once, when the first tool result reads as refused ({@link looksRefused}).
   */
  escalate?: Record<string, unknown>;
  /**
   * A review: instead of the shell, the model reports this finding with the run's `report_finding`
   * tool (by whatever prefix the CLI gives MCP tools), then answers with a summary. Without such a
   * tool it answers with the finding in a fenced JSON block, as agent-mux's review prompt asks.
   */
  finding?: Record<string, unknown>;
}

export const REVIEW_SUMMARY = 'Reviewed the change: one finding reported.';

/** A tool result that says the command was refused or could not write (a sandbox, a read-only tree). */
export function looksRefused(output: string): boolean {
  return /read-only file system|operation not permitted|permission denied|not permitted|sandbox|exited with code [1-9]|exit(?:_| )code"?:? ?[1-9]/i.test(
    output,
  );
}

export function shellArgs(tool: ToolInfo, call: ShellCall = {}): Record<string, unknown> {
  const command = call.command ?? MARKER_COMMAND;
  const properties = (tool.schema?.properties ?? {}) as Record<string, { type?: string | string[] }>;
  const required = (tool.schema?.required ?? []) as string[];
  const args: Record<string, unknown> = {};
  const commandKey = ['command', 'cmd', 'commandLine', 'script'].find((k) => k in properties) ?? 'command';
  const commandType = properties[commandKey]?.type;
  args[commandKey] =
    commandType === 'array' || (Array.isArray(commandType) && commandType.includes('array'))
      ? ['bash', '-lc', command]
      : command;
  for (const [key, value] of Object.entries(call.extraArgs ?? {})) if (key in properties) args[key] = value;
  for (const key of required) {
    if (key in args) continue;
    const type = properties[key]?.type;
    if (type === 'string' || type === undefined) args[key] = key === 'description' ? 'Print a marker' : '.';
    else if (type === 'boolean') args[key] = false;
    else if (type === 'number' || type === 'integer') args[key] = 10_000;
  }
  return args;
}

let calls = 0;

/**
 * The scripted behaviour of each live case. Stateless: a request that carries a tool result gets the final answer.
 * `shell` is what the tool cases run (default MARKER_COMMAND).
 */
export function decide(
  caseName: LiveCaseName,
  tools: readonly ToolInfo[],
  hasToolResult: boolean,
  call: ShellCall = {},
  outputs: readonly string[] = [],
): Reply {
  if (caseName === 'auth-401') return { kind: 'error', status: 401 };
  if (caseName === 'rate-429') return { kind: 'error', status: 429 };
  if (caseName === 'tool' && call.finding) return reviewReply(tools, outputs, call.finding);
  if (caseName === 'tool' || caseName === 'denied') {
    const shell = pickShellTool(tools);
    if (hasToolResult && shell && call.escalate && outputs.length === 1 && looksRefused(outputs[0] ?? '')) {
      const escalated = { ...call, extraArgs: { ...call.extraArgs, ...call.escalate } };
      return { kind: 'tool', name: shell.name, args: shellArgs(shell, escalated), callId: `call_fake_${++calls}` };
    }
    if (hasToolResult) return { kind: 'text', text: AFTER_TOOL_TEXT };
    if (!shell) return { kind: 'text', text: NO_SHELL_TEXT };
    return { kind: 'tool', name: shell.name, args: shellArgs(shell, call), callId: `call_fake_${++calls}` };
  }
  return { kind: 'text', text: PLAIN_TEXT };
}

/**
 * A reviewer, as a real model goes about it: it calls `report_finding` when the tool is in its list;
 * when the CLI defers MCP tools behind a search tool (Claude Code's `ToolSearch`), it searches for
 * the tool first and calls it by the name the search returned; with neither, it answers with the
 * fenced JSON block. After the finding's result, a summary.
 */
function reviewReply(tools: readonly ToolInfo[], outputs: readonly string[], finding: Record<string, unknown>): Reply {
  if (outputs.some((output) => /recorded|shownOn|not a file of the pull request/.test(output))) {
    return { kind: 'text', text: REVIEW_SUMMARY };
  }
  const listed = tools.find((t) => /report_finding$/.test(t.name))?.name;
  if (listed) return { kind: 'tool', name: listed, args: finding, callId: `call_fake_${++calls}` };
  for (const output of outputs) {
    // Codex: the search's tools, MCP ones in a namespace. Claude Code: <function>{"name": …}</function> lines.
    const namespaced = namespacedTool(output, 'report_finding');
    if (namespaced) return { kind: 'tool', ...namespaced, args: finding, callId: `call_fake_${++calls}` };
    const name = /"name":\s*"([^"]*report_finding)"/.exec(output)?.[1];
    if (name) return { kind: 'tool', name, args: finding, callId: `call_fake_${++calls}` };
  }
  const search = tools.find((t) => t.name === 'ToolSearch' || t.native === 'tool_search');
  if (search && outputs.length === 0) {
    const args =
      search.name === 'ToolSearch'
        ? { query: 'report_finding', max_results: 5 }
        : { query: 'report_finding', limit: 5 };
    return { kind: 'tool', name: search.name, args, callId: `call_fake_${++calls}` };
  }
  return { kind: 'text', text: `${REVIEW_SUMMARY}\n\n\`\`\`json\n${JSON.stringify({ findings: [finding] })}\n\`\`\`` };
}

/** A tool named `name` inside a namespace of a tool search's output (JSON), with that namespace. */
function namespacedTool(output: string, name: string): { name: string; namespace: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  for (const entry of value as { type?: string; name?: string; tools?: { name?: string }[] }[]) {
    if (entry.type === 'namespace' && entry.name && entry.tools?.some((tool) => tool.name === name)) {
      return { name, namespace: entry.name };
    }
  }
  return undefined;
}

/** Splits text the way a model streams it: a few words per delta. */
export function chunks(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

export const usage = { input: 120, output: 24, cacheRead: 40 };
