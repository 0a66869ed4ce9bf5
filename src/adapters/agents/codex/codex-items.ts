import type { EventDraft } from '../../../core/events/index.ts';
import type { RecentIds } from '../../shared/recent-ids.ts';
import { isObj, type Obj, str, unknownRecord } from '../../shared/record-fields.ts';
import type { StreamLedger } from '../../shared/stream-ledger.ts';
import type { CodexItem } from './codex-record.ts';

/**
 * The name under which Codex's shell tool reaches the model (and a run's policy): `exec_command`
 * in Codex 0.169 (unified exec). `command_execution` items are reported under this name.
 */
export const codexShellTool = 'exec_command';
/** The tool behind `file_change` items. */
export const codexPatchTool = 'apply_patch';

/** What {@link translateItem} keeps between records (a part of the Codex translator's state). */
export interface CodexItemState {
  debug: boolean;
  /** Messages, reasoning and tool calls open (results carry no duration: Codex gives none). */
  ledger: StreamLedger;
  /** MCP calls started and not completed (they end in `mcp_tool_result`, outside the ledger). */
  mcp: Set<string>;
  /** Items completed lately (a repeated `item.completed` is ignored). */
  done: RecentIds;
  /** The last agent message: the turn's result. */
  lastMessage?: string;
}

/**
 * What a record that emits nothing returns: one shared empty list rather than a new one per record
 * (most `thread.started` and repeated item records of a long run emit nothing; issue 18). Frozen:
 * callers only read it.
 */
export const none = Object.freeze([]) as unknown as EventDraft[];

/** One `item.started|updated|completed` item (its id checked at the edge, codex-record.ts) → its drafts. */
export function translateItem(item: CodexItem, completed: boolean, state: CodexItemState): EventDraft[] {
  const id = item.id;
  if (state.done.has(id)) return none;
  if (completed) state.done.add(id);
  switch (item.type) {
    case 'agent_message':
      return messageItem(id, str(item.text) ?? '', completed, state);
    case 'reasoning':
      return reasoningItem(id, str(item.text) ?? '', completed, state);
    case 'command_execution':
    case 'file_change':
    case 'web_search':
    case 'collab_tool_call':
      return toolItem(item, item.type, id, completed, state.ledger);
    case 'mcp_tool_call':
      return mcpItem(item, id, completed, state);
    case 'todo_list': {
      const items = Array.isArray(item.items) ? item.items.filter(isObj) : [];
      const done = items.filter((t) => t.completed === true).length;
      const lines = items.map((t) => `[${t.completed === true ? 'x' : ' '}] ${str(t.text) ?? ''}`);
      return [{ type: 'progress', summary: `plan ${done}/${items.length}\n${lines.join('\n')}`.trim() }];
    }
    case 'plan':
      return completed ? [{ type: 'progress', summary: str(item.text) ?? '' }] : none;
    case 'error':
      // A non-fatal notice surfaced as an item (unknown model metadata, hook trust bypass, …).
      return completed
        ? [{ type: 'error', code: 'agent_error', message: str(item.message) ?? 'error', recoverable: true }]
        : none;
    default:
      return unknownRecord(state, `unknown codex item type ${JSON.stringify(item.type)}`, item);
  }
}

/** What of `text` was not said yet: its suffix after `before`, or all of it when it changed. */
const suffix = (text: string, before: string): string => (text.startsWith(before) ? text.slice(before.length) : text);

/** An agent message: whole text on completion, suffix deltas if it ever streams. */
function messageItem(id: string, text: string, completed: boolean, state: CodexItemState): EventDraft[] {
  const { ledger } = state;
  const open = ledger.messageOpen && ledger.messageId === id;
  if (!open && completed && text === '') return none;
  const out: EventDraft[] = [];
  if (!open) ledger.startMessage(out, id);
  ledger.text(out, suffix(text, ledger.messageText), id);
  if (completed) {
    state.lastMessage = text;
    ledger.stopMessage(out, text);
  }
  return out;
}

/** A reasoning summary: a thinking block under the item's own id. */
function reasoningItem(id: string, text: string, completed: boolean, state: CodexItemState): EventDraft[] {
  const { ledger } = state;
  if (!ledger.thinkingOpen && completed && text === '') return none;
  const out: EventDraft[] = [];
  ledger.startThinking(out, id);
  ledger.thinking(out, suffix(text, ledger.thinkingText), id);
  if (completed) ledger.stopThinking(out, text);
  return out;
}

type ToolItemType = 'command_execution' | 'file_change' | 'web_search' | 'collab_tool_call';

/** The tool name and input of a tool item (read once, when the call starts). */
function toolStart(item: Obj, type: ToolItemType): { name: string; input: unknown } {
  switch (type) {
    case 'command_execution':
      return { name: codexShellTool, input: { command: str(item.command) ?? '' } };
    case 'file_change':
      return { name: codexPatchTool, input: { changes: item.changes ?? [] } };
    case 'web_search':
      return { name: 'web_search', input: { query: str(item.query) ?? '' } };
    case 'collab_tool_call':
      return { name: str(item.tool) ?? 'collab', input: { prompt: item.prompt, receivers: item.receiver_thread_ids } };
    default: {
      const never: never = type;
      return never;
    }
  }
}

function toolItem(item: Obj, type: ToolItemType, id: string, completed: boolean, ledger: StreamLedger): EventDraft[] {
  if (ledger.hasTool(id) && !completed) return none;
  const out: EventDraft[] = [];
  if (!ledger.hasTool(id)) {
    const { name, input } = toolStart(item, type);
    ledger.startTool(out, id, name);
    ledger.readyTool(out, id, input);
  }
  if (!completed) return out;
  switch (type) {
    case 'command_execution': {
      const status = item.status;
      const exit = typeof item.exit_code === 'number' ? item.exit_code : undefined;
      const isError = status === 'failed' || status === 'declined' || (exit !== undefined && exit !== 0);
      ledger.toolResult(out, id, str(item.aggregated_output) ?? '', isError);
      break;
    }
    case 'file_change':
      ledger.toolResult(out, id, { status: item.status, changes: item.changes ?? [] }, item.status === 'failed');
      break;
    case 'web_search':
      ledger.toolResult(out, id, item.action ?? null, false);
      break;
    case 'collab_tool_call':
      ledger.toolResult(out, id, item.agents_states ?? null, item.status === 'failed');
      break;
  }
  return out;
}

function mcpItem(item: Obj, id: string, completed: boolean, state: CodexItemState): EventDraft[] {
  const server = str(item.server) ?? '';
  const toolName = str(item.tool) ?? '';
  const out: EventDraft[] = [];
  if (!state.mcp.has(id)) {
    state.mcp.add(id);
    out.push({ type: 'mcp_tool_call_start', toolCallId: id, server, toolName, input: item.arguments ?? {} });
  }
  if (completed) {
    state.mcp.delete(id);
    const error = isObj(item.error) ? str(item.error.message) : undefined;
    const result = isObj(item.result) ? item.result : undefined;
    const output = error ?? (result ? (result.structured_content ?? result.content ?? null) : null);
    out.push({
      type: 'mcp_tool_result',
      toolCallId: id,
      server,
      toolName,
      output,
      isError: item.status === 'failed' || error !== undefined,
    });
  }
  return out;
}
