import { isObject } from './acp-message.ts';

/**
 * The name of the tool an ACP tool call runs, as far as the agent says: the `name` field, the
 * Claude Code adapter's `_meta.claudeCode.toolName`, else the tool kind, else `tool`.
 */
export function acpToolName(call: Record<string, unknown>): string {
  if (typeof call.name === 'string' && call.name !== '') return call.name;
  const meta = call._meta;
  if (isObject(meta)) {
    for (const vendor of Object.values(meta)) {
      if (isObject(vendor) && typeof vendor.toolName === 'string' && vendor.toolName !== '') return vendor.toolName;
    }
  }
  if (typeof call.kind === 'string' && call.kind !== '') return call.kind;
  return 'tool';
}

/** What a tool call is asked to do: its title, kind, locations, raw input and the diffs it carries. */
export function acpToolInput(call: Record<string, unknown>): Record<string, unknown> {
  const diffs = Array.isArray(call.content) ? call.content.filter((c) => isObject(c) && c.type === 'diff') : [];
  return {
    ...(typeof call.title === 'string' ? { title: call.title } : {}),
    ...(typeof call.kind === 'string' ? { kind: call.kind } : {}),
    ...(Array.isArray(call.locations) && call.locations.length > 0 ? { locations: call.locations } : {}),
    ...(call.rawInput !== undefined && call.rawInput !== null ? { rawInput: call.rawInput } : {}),
    ...(diffs.length > 0 ? { diffs } : {}),
  };
}

/** What a finished tool call gave back: its content blocks (text, diffs, terminals) and raw output. */
export function acpToolOutput(call: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(Array.isArray(call.content) && call.content.length > 0 ? { content: call.content } : {}),
    ...(call.rawOutput !== undefined && call.rawOutput !== null ? { rawOutput: call.rawOutput } : {}),
    ...(Array.isArray(call.locations) && call.locations.length > 0 ? { locations: call.locations } : {}),
  };
}

/**
 * A shell command's output and exit as the Zed convention carries them in `_meta` (codex-acp sends
 * them to a client that declares `_meta.terminal_output`): `terminal_output.data` (a chunk, or the
 * whole output at the end) and `terminal_exit.exit_code`.
 */
export function acpTerminalMeta(call: Record<string, unknown>): { output?: string; exitCode?: number } {
  const meta = call._meta;
  if (!isObject(meta)) return {};
  const output = isObject(meta.terminal_output) ? meta.terminal_output.data : undefined;
  const exit = isObject(meta.terminal_exit) ? meta.terminal_exit.exit_code : undefined;
  return {
    ...(typeof output === 'string' ? { output } : {}),
    ...(typeof exit === 'number' ? { exitCode: exit } : {}),
  };
}
