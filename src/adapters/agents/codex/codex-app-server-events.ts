import { isObj, type Obj, str } from '../../shared/record-fields.ts';
import { CODEX_REQUEST, isRunRequest } from './codex-app-server-ids.ts';

/** What the mapping keeps between records: streamed text per item, and the thread's token totals. */
export interface CodexAppServerState {
  /** Text streamed so far per item (`item/agentMessage/delta`, reasoning summary deltas). */
  streamed: Map<string, string>;
  /** `thread/tokenUsage/updated`'s `total` as last reported: the thread's running totals. */
  usage?: Obj;
}

/** What a record of `codex app-server` is, as the exec translator reads it. */
export type CodexAppServerMapped =
  | { kind: 'events'; events: Obj[] }
  /** Known and of no use to the run (rate-limit and status notices, MCP start-up, …). */
  | { kind: 'ignored' }
  | { kind: 'unknown'; what: string };

const events = (...list: Obj[]): CodexAppServerMapped => ({ kind: 'events', events: list });
const ignored: CodexAppServerMapped = { kind: 'ignored' };

/** Notifications the run has no use for (checked against codex 0.169.0's app-server schema). */
const IGNORED = new Set([
  'thread/started',
  'thread/status/changed',
  'thread/settings/updated',
  'thread/name/updated',
  'thread/compacted',
  'account/rateLimits/updated',
  'account/updated',
  'remoteControl/status/changed',
  'mcpServer/startupStatus/updated',
  'serverRequest/resolved',
  'item/commandExecution/outputDelta',
  'item/commandExecution/terminalInteraction',
  'item/fileChange/outputDelta',
  'item/fileChange/patchUpdated',
  'item/mcpToolCall/progress',
  'item/reasoning/summaryPartAdded',
  'item/reasoning/textDelta',
  'item/plan/delta',
  'turn/diff/updated',
  'hook/started',
  'hook/completed',
  'skills/changed',
  'deprecationNotice',
  'configWarning',
  'model/rerouted',
  'model/verification',
  'model/safetyBuffering/updated',
  'turn/moderationMetadata',
  'fs/changed',
  'app/list/updated',
]);

/** camelCase status (`inProgress`) → exec's snake_case (`in_progress`). */
const snake = (value: unknown): unknown =>
  typeof value === 'string' ? value.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : value;

/**
 * One JSON-RPC message of `codex app-server` (v2, codex 0.169.0: `--listen stdio://`, one object a line)
 * as the `ThreadEvent`s `codex exec --json` prints for the same thing (both are made from the same core
 * events), so that one translator reads both: the thread's id from our `thread/*` request's response,
 * `turn/started|completed`, `item/started|completed` with the item's fields renamed (`agentMessage` →
 * `agent_message`, `aggregatedOutput` → `aggregated_output`, …), streamed message and reasoning text
 * as `item.updated` with the text so far (exec prints messages only whole), the plan as a `todo_list`,
 * `error` notifications (a retry that Codex will make as exec's `Reconnecting...`), and a failed
 * response to one of our requests as a failed turn. Requests from the server are the controller's.
 */
export function codexAppServerEvents(value: Obj, state: CodexAppServerState): CodexAppServerMapped {
  const method = str(value.method);
  if (method === undefined) return response(value);
  const params = isObj(value.params) ? value.params : {};
  // A request from the server (it has an id): answered by the controller.
  if (value.id !== undefined) return ignored;
  switch (method) {
    case 'turn/started':
      state.streamed.clear();
      return events({ type: 'turn.started' });
    case 'turn/completed':
      return turnCompleted(params, state);
    case 'item/started':
    case 'item/completed':
      return itemEvent(params.item, method === 'item/completed', state);
    case 'item/agentMessage/delta':
      return streamedText(params, 'agent_message', state);
    case 'item/reasoning/summaryTextDelta':
      return streamedText(params, 'reasoning', state);
    case 'turn/plan/updated':
      return planUpdated(params);
    case 'thread/tokenUsage/updated': {
      const usage = isObj(params.tokenUsage) ? params.tokenUsage.total : undefined;
      if (isObj(usage)) state.usage = usage;
      return ignored;
    }
    case 'error': {
      const error = isObj(params.error) ? params.error : {};
      const message = str(error.message) ?? 'unknown error';
      if (params.willRetry !== true) return events({ type: 'error', message });
      // A retry Codex will make (`Reconnecting... 1/5`, why in `additionalDetails`): exec's
      // `Reconnecting... 1/5 (why)`, which the translator logs.
      const why = str(error.additionalDetails);
      const retry = message.startsWith('Reconnecting...') ? message : `Reconnecting... ${message}`;
      return events({ type: 'error', message: why ? `${retry} (${why})` : retry });
    }
    case 'warning':
    case 'guardianWarning': {
      const message = str(params.message);
      return message
        ? events({ type: 'item.completed', item: { id: `warning-${message}`, type: 'error', message } })
        : ignored;
    }
    default:
      return IGNORED.has(method)
        ? ignored
        : { kind: 'unknown', what: `unknown codex app-server notification ${method}` };
  }
}

/** The response to one of our requests: the thread's id, or a request Codex refused. */
function response(value: Obj): CodexAppServerMapped {
  const id = value.id;
  if (isObj(value.error)) {
    // A refused steer is the controller's (it starts a turn with the message instead).
    if (!isRunRequest(id)) return ignored;
    const message = str(value.error.message) ?? 'codex app-server refused the request';
    return events({ type: 'turn.failed', error: { message } });
  }
  if (id === CODEX_REQUEST.thread && isObj(value.result) && isObj(value.result.thread)) {
    return events({ type: 'thread.started', thread_id: value.result.thread.id });
  }
  return ignored;
}

function turnCompleted(params: Obj, state: CodexAppServerState): CodexAppServerMapped {
  const turn = isObj(params.turn) ? params.turn : {};
  if (turn.status === 'completed') {
    const usage = state.usage;
    return events({
      type: 'turn.completed',
      ...(usage
        ? {
            usage: {
              input_tokens: usage.inputTokens,
              cached_input_tokens: usage.cachedInputTokens,
              cache_write_input_tokens: usage.cacheWriteInputTokens,
              output_tokens: usage.outputTokens,
              reasoning_output_tokens: usage.reasoningOutputTokens,
            },
          }
        : {}),
    });
  }
  const error = isObj(turn.error) ? str(turn.error.message) : undefined;
  const message = error ?? (turn.status === 'interrupted' ? 'the turn was interrupted' : 'the turn failed');
  return events({ type: 'turn.failed', error: { message } });
}

function streamedText(
  params: Obj,
  type: 'agent_message' | 'reasoning',
  state: CodexAppServerState,
): CodexAppServerMapped {
  const id = str(params.itemId);
  const delta = str(params.delta);
  if (!id || delta === undefined) return ignored;
  const text = (state.streamed.get(id) ?? '') + delta;
  state.streamed.set(id, text);
  return events({ type: 'item.updated', item: { id, type, text } });
}

function planUpdated(params: Obj): CodexAppServerMapped {
  const steps = Array.isArray(params.plan) ? params.plan.filter(isObj) : [];
  const items = steps.map((s) => ({ text: str(s.step) ?? '', completed: s.status === 'completed' }));
  return events({ type: 'item.updated', item: { id: `plan-${str(params.turnId) ?? ''}`, type: 'todo_list', items } });
}

function itemEvent(raw: unknown, completed: boolean, state: CodexAppServerState): CodexAppServerMapped {
  if (!isObj(raw)) return { kind: 'unknown', what: 'codex app-server item event without an item' };
  const type = completed ? 'item.completed' : 'item.started';
  const item = execItem(raw, state);
  return item === undefined ? ignored : events({ type, item });
}

/** An app-server `ThreadItem` as exec's item; undefined for items the run does not show (the user's own). */
function execItem(item: Obj, state: CodexAppServerState): Obj | undefined {
  const id = item.id;
  switch (item.type) {
    case 'agentMessage':
      return { id, type: 'agent_message', text: str(item.text) ?? state.streamed.get(String(id)) ?? '' };
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? item.summary.filter((s) => typeof s === 'string') : [];
      return { id, type: 'reasoning', text: summary.join('\n\n') || (state.streamed.get(String(id)) ?? '') };
    }
    case 'commandExecution':
      return {
        id,
        type: 'command_execution',
        command: item.command,
        aggregated_output: item.aggregatedOutput ?? '',
        exit_code: item.exitCode ?? null,
        status: snake(item.status),
      };
    case 'fileChange': {
      const changes = Array.isArray(item.changes) ? item.changes.filter(isObj) : [];
      return {
        id,
        type: 'file_change',
        changes: changes.map((c) => ({ path: c.path, kind: isObj(c.kind) ? c.kind.type : c.kind })),
        status: snake(item.status),
      };
    }
    case 'mcpToolCall': {
      const result = isObj(item.result) ? item.result : undefined;
      return {
        id,
        type: 'mcp_tool_call',
        server: item.server,
        tool: item.tool,
        arguments: item.arguments,
        result: result ? { content: result.content, structured_content: result.structuredContent } : null,
        error: item.error ?? null,
        status: snake(item.status),
      };
    }
    case 'webSearch':
      return { id, type: 'web_search', query: item.query, action: item.action ?? null };
    case 'collabAgentToolCall':
      return {
        id,
        type: 'collab_tool_call',
        tool: item.tool,
        prompt: item.prompt,
        receiver_thread_ids: item.receiverThreadIds,
        agents_states: item.agentsStates,
        status: snake(item.status),
      };
    case 'plan':
      return { id, type: 'plan', text: item.text };
    default:
      // userMessage (the prompt, a steered message: the controller's), hookPrompt, imageView,
      // contextCompaction, review mode, sub-agent activity: nothing the run shows.
      return undefined;
  }
}
