import { join } from 'node:path';
import { listFiles, openRegularInside } from '../../../core/files/confined-files.ts';

/**
 * What Codex's rollout (its session log, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`)
 * says of one tool call. Seen with Codex 0.169.0: a `response_item` `function_call` (`name`,
 * `call_id`, `arguments` as a JSON string: `cmd`, `sandbox_permissions`, `justification`) and its
 * `function_call_output` (`output`: `… Process exited with code N … Output:\n…`).
 */
export interface RolloutCall {
  callId: string;
  tool: string;
  /** The command, for a shell tool. */
  command?: string;
  /** Why the model asks to run it outside the sandbox (`justification`). */
  justification?: string;
  /** The tool's output as the model saw it, when it came back. */
  output?: string;
  /** The command's exit code, where the output gives one. */
  exitCode?: number;
}

/** The most of a rollout read: its end, where the current turn is. */
const MAX_ROLLOUT_BYTES = 16 * 1024 * 1024;

/** The rollouts of session `sessionId` under `codexHome`, relative to it (none when there is none). */
export async function findCodexRollouts(codexHome: string, sessionId: string): Promise<string[]> {
  const suffix = `-${sessionId}.jsonl`;
  return (await listFiles(codexHome, join(codexHome, 'sessions'))).filter(
    (file) => file.split('/').pop()?.startsWith('rollout-') && file.endsWith(suffix),
  );
}

/**
 * The tool calls in session `sessionId`'s rollout, oldest first; none when it cannot be read. The
 * rollout lies in the agent's own tree: it is read without following a link (a rollout made a link
 * to another file is not read), and only its last 16 MiB.
 */
export async function readRolloutCalls(codexHome: string, sessionId: string): Promise<RolloutCall[]> {
  const [file] = await findCodexRollouts(codexHome, sessionId).catch(() => []);
  return file ? readRolloutFile(codexHome, file) : [];
}

/** The tool calls in one rollout (`file` relative to `codexHome`, found by {@link findCodexRollouts}); none when unreadable. */
export async function readRolloutFile(codexHome: string, file: string): Promise<RolloutCall[]> {
  try {
    const handle = await openRegularInside(codexHome, file);
    try {
      const size = (await handle.stat()).size;
      const length = Math.min(size, MAX_ROLLOUT_BYTES);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      const text = buffer.toString('utf8');
      // A read that starts mid-file starts mid-line: that line is dropped.
      return rolloutCalls(length < size ? text.slice(text.indexOf('\n') + 1) : text);
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
}

/**
 * The tool calls of a rollout's text since its last user message (the current turn's: a resumed
 * session's rollout holds every earlier turn too); a line that is not one of them is skipped.
 */
export function rolloutCalls(text: string): RolloutCall[] {
  let calls = new Map<string, RolloutCall>();
  for (const line of text.split('\n')) {
    const payload = payloadOf(line);
    if (!payload) continue;
    if (payload.type === 'message' && payload.role === 'user') {
      calls = new Map();
      continue;
    }
    if (typeof payload.call_id !== 'string') continue;
    const callId = payload.call_id;
    if (payload.type === 'function_call' && typeof payload.name === 'string') {
      calls.set(callId, { callId, tool: payload.name, ...argumentsOf(payload.arguments) });
    } else if (payload.type === 'function_call_output') {
      const call = calls.get(callId);
      if (!call) continue;
      const output = outputText(payload.output);
      call.output = output;
      const exitCode = exitCodeOf(output);
      if (exitCode !== undefined) call.exitCode = exitCode;
    }
  }
  return [...calls.values()];
}

/** A call that ran and failed: a non-zero exit code, or a sandbox that refused it. */
export function rolloutCallFailed(call: RolloutCall): boolean {
  if (call.output === undefined) return false;
  if (call.exitCode !== undefined) return call.exitCode !== 0;
  return /sandbox|operation not permitted|permission denied|read-only file system|rejected by user/i.test(call.output);
}

function payloadOf(line: string): Record<string, unknown> | undefined {
  if (!line.includes('"call_id"') && !line.includes('"user"')) return undefined;
  try {
    const record = JSON.parse(line) as { type?: unknown; payload?: unknown };
    if (record.type !== 'response_item' || typeof record.payload !== 'object' || record.payload === null)
      return undefined;
    return record.payload as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function argumentsOf(raw: unknown): Pick<RolloutCall, 'command' | 'justification'> {
  if (typeof raw !== 'string') return {};
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return {};
    args = parsed as Record<string, unknown>;
  } catch {
    return {};
  }
  const command = args.cmd ?? args.command;
  const text = Array.isArray(command)
    ? command.map(String).join(' ')
    : typeof command === 'string'
      ? command
      : undefined;
  return {
    ...(text !== undefined ? { command: text } : {}),
    ...(typeof args.justification === 'string' && args.justification.trim()
      ? { justification: args.justification.trim() }
      : {}),
  };
}

/** Codex's `shell` tool answered JSON (`{"output": …, "metadata": {"exit_code": N}}`); `exec_command` answers text. */
function outputText(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'object' && raw !== null && typeof (raw as { content?: unknown }).content === 'string')
    return (raw as { content: string }).content;
  return JSON.stringify(raw ?? '');
}

function exitCodeOf(output: string): number | undefined {
  const text = /Process exited with code (-?\d+)/.exec(output) ?? /"exit_code"\s*:\s*(-?\d+)/.exec(output);
  return text?.[1] === undefined ? undefined : Number(text[1]);
}
