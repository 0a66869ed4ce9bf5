import { isObj } from '../../shared/record-fields.ts';

/**
 * What a title of Hermes's ACP tool calls says (acp_adapter/tools.py `build_tool_title`, 0.18.2):
 * the tool and, where the title holds it, its main argument. Hermes sends no tool name and, for its
 * own ("polished") tools, no `rawInput`: the title is where both are.
 */
const TITLES: readonly { pattern: RegExp; tool: string; input?: (m: RegExpExecArray) => Record<string, unknown> }[] = [
  { pattern: /^terminal: ([\s\S]*)$/, tool: 'terminal', input: (m) => ({ command: m[1] }) },
  { pattern: /^read: ([\s\S]*)$/, tool: 'read_file', input: (m) => ({ path: m[1] }) },
  { pattern: /^write: ([\s\S]*)$/, tool: 'write_file', input: (m) => ({ path: m[1] }) },
  { pattern: /^patch \(([^)]*)\): ([\s\S]*)$/, tool: 'patch', input: (m) => ({ mode: m[1], path: m[2] }) },
  { pattern: /^search: ([\s\S]*)$/, tool: 'search_files', input: (m) => ({ pattern: m[1] }) },
  { pattern: /^web search: ([\s\S]*)$/, tool: 'web_search', input: (m) => ({ query: m[1] }) },
  { pattern: /^(?:extract: |web extract$)/, tool: 'web_extract' },
  { pattern: /^process (\S+)(?:: (.*))?$/, tool: 'process', input: (m) => ({ action: m[1] }) },
  { pattern: /^(?:delegate: |delegate task$|delegate batch )/, tool: 'delegate_task' },
  { pattern: /^(?:session search: |recent sessions$)/, tool: 'session_search' },
  { pattern: /^memory (\S+): (.*)$/, tool: 'memory', input: (m) => ({ action: m[1], target: m[2] }) },
  { pattern: /^python(?: code$|: )/, tool: 'execute_code' },
  { pattern: /^todo(?: \(|$)/, tool: 'todo' },
  { pattern: /^skill view \(/, tool: 'skill_view' },
  { pattern: /^skills list/, tool: 'skills_list' },
  { pattern: /^skill \S+: /, tool: 'skill_manage' },
  { pattern: /^navigate: ([\s\S]*)$/, tool: 'browser_navigate', input: (m) => ({ url: m[1] }) },
  { pattern: /^browser snapshot$/, tool: 'browser_snapshot' },
  { pattern: /^browser vision: /, tool: 'browser_vision' },
  { pattern: /^browser images$/, tool: 'browser_get_images' },
  { pattern: /^analyze image: /, tool: 'vision_analyze' },
  { pattern: /^generate image/, tool: 'image_generate' },
  { pattern: /^cron \S+/, tool: 'cronjob' },
];

/** Any other tool's title is its bare name (`return tool_name`). */
const BARE_NAME = /^[a-z][a-z0-9_]*$/;

/** The first text block of a tool call's content (`$ <command>` for the terminal). */
function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const item of content) {
    if (isObj(item) && isObj(item.content) && typeof item.content.text === 'string') return item.content.text;
  }
  return undefined;
}

/**
 * The tool and input of one Hermes ACP tool call (`tool_call` update or the `toolCall` of a
 * `session/request_permission`), or undefined when nothing tells them.
 *
 * - A dangerous-command question (acp_adapter/permissions.py): kind `execute`, `rawInput: {command,
 *   description}` → `terminal` with that input.
 * - An edit question (acp_adapter/edit_approval.py): kind `edit`, `rawInput: {tool, arguments}` → that
 *   tool with its arguments.
 * - A started call: its title (see {@link TITLES}); the terminal's command from the `$ <command>`
 *   content, which Hermes does not shorten (the title cuts it at 80 characters).
 */
export function hermesToolOf(call: Record<string, unknown>): { tool: string; input?: unknown } | undefined {
  const raw = call.rawInput;
  if (isObj(raw)) {
    if (typeof raw.tool === 'string' && raw.tool !== '' && call.kind === 'edit') {
      return { tool: raw.tool, input: raw.arguments ?? raw };
    }
    if (typeof raw.command === 'string' && call.kind === 'execute') return { tool: 'terminal', input: raw };
  }
  const title = typeof call.title === 'string' ? call.title : '';
  for (const { pattern, tool, input } of TITLES) {
    const match = pattern.exec(title);
    if (!match) continue;
    if (tool === 'terminal') {
      const shown = firstText(call.content);
      const command = shown?.startsWith('$ ') ? shown.slice(2) : match[1];
      return { tool, input: { command } };
    }
    return { tool, ...(input ? { input: input(match) } : {}) };
  }
  if (BARE_NAME.test(title)) return { tool: title };
  return undefined;
}

/**
 * The same tool call with what {@link hermesToolOf} found where ACP readers look for it: the tool in
 * `_meta.hermes.toolName` (as the Claude Code adapter puts its own), the input in `rawInput` when
 * Hermes sent none. The call itself when nothing was found or it already says.
 */
export function withHermesTool(call: Record<string, unknown>): Record<string, unknown> {
  if (typeof call.name === 'string' && call.name !== '') return call;
  const found = hermesToolOf(call);
  if (!found) return call;
  const meta = isObj(call._meta) ? call._meta : {};
  const hermes = isObj(meta.hermes) ? meta.hermes : {};
  return {
    ...call,
    _meta: { ...meta, hermes: { ...hermes, toolName: found.tool } },
    ...(call.rawInput === undefined || call.rawInput === null
      ? found.input === undefined
        ? {}
        : { rawInput: found.input }
      : {}),
  };
}
