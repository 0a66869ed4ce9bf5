import type { LaunchContext, ProcessController, RunIO, SpawnPlan } from '../../../core/adapter/index.ts';
import { isObj, str } from '../../shared/record-fields.ts';
import { PI_IDLE_PROBE } from './pi-run-end.ts';

/** RPC mode, which takes messages mid-run, unless files are attached (it refuses `@file`). */
export function piTakesMessages(ctx: LaunchContext): boolean {
  return (ctx.request.files ?? []).length === 0;
}

/**
 * The id of the `get_session_stats` command the run opens with: its response names the session.
 * Not `get_state`, whose answer carries the model and, in omp 18.2.3, the whole system prompt
 * (67 KB a time, against 0.8 KB).
 */
export const PI_SESSION_REQUEST = 'agent-mux-session';
/** The id of the run's prompt command: a `success: false` response to it fails the run. */
export const PI_PROMPT_REQUEST = 'agent-mux-prompt';

/**
 * What `pi --mode rpc` reads first (docs/rpc.md of pi 0.73.1): `get_session_stats`, whose response carries
 * the session id that `--mode json` printed as its header, then the prompt. One JSON object a line.
 */
export function piRpcOpening(prompt: string): string {
  const state = { id: PI_SESSION_REQUEST, type: 'get_session_stats' };
  const run = { id: PI_PROMPT_REQUEST, type: 'prompt', message: prompt };
  return `${JSON.stringify(state)}\n${JSON.stringify(run)}\n`;
}

/**
 * A user's message for the running agent: a `prompt` with `streamingBehavior: "steer"`. While pi
 * streams, it waits for the tool calls of the current step and goes before the next model request;
 * when pi has just gone idle, the same command starts a new run with it (a bare `steer` would wait
 * for a prompt that never comes).
 */
export function piSteerCommand(text: string): Record<string, string> {
  return { type: 'prompt', message: text, streamingBehavior: 'steer' };
}

/**
 * The plan's stdin for RPC mode (pi's and omp's): the opening commands, kept open for messages
 * mid-run (`SpawnPlan.input`); RPC mode ends when its stdin does, which the core closes once the
 * run is over.
 */
export function piRpcInput(prompt: string): Pick<SpawnPlan, 'stdin' | 'keepStdinOpen' | 'input'> {
  return { stdin: piRpcOpening(prompt), keepStdinOpen: true, input: { message: piSteerCommand } };
}

const DIALOGS = new Set(['select', 'confirm', 'input', 'editor']);

/**
 * In RPC mode an extension's dialog (`ctx.ui.confirm`, `select`, `input`, `editor`) is sent to the
 * client and blocks until answered. Nobody sits at a headless run: each is answered `cancelled` at
 * once (what pi's print mode gives an extension without a UI), so that no extension of the host's
 * can hold the run. Fire-and-forget requests (`notify`, `setStatus`, …) need no answer. At each
 * `agent_end` it asks whether pi is idle (pi-run-end.ts). In print mode (files attached) it does
 * nothing: stdin is closed there.
 */
export function piRpcController(io: RunIO, ctx: LaunchContext): ProcessController {
  if (!piTakesMessages(ctx)) return {};
  return {
    onRecord(record) {
      if (record.kind !== 'json' || !isObj(record.value)) return;
      const value = record.value;
      // Whether pi is idle now or goes on by itself (a retry, a compaction): pi-run-end.ts.
      if (value.type === 'agent_end') {
        io.writeLine({ id: PI_IDLE_PROBE, type: 'get_session_stats' }).catch(() => undefined);
        return;
      }
      if (value.type !== 'extension_ui_request' || !DIALOGS.has(str(value.method) ?? '')) return;
      const id = str(value.id);
      if (id === undefined) return;
      io.writeLine({ type: 'extension_ui_response', id, cancelled: true }).catch(() => undefined);
    },
  };
}
