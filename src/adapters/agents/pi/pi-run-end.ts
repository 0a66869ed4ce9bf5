import { isObj } from '../../shared/record-fields.ts';
import type { PiTranslatorState } from './pi-state.ts';

/**
 * The id of the command sent at each `agent_end` in RPC mode (`get_session_stats`, a small answer):
 * its answer comes after what pi announces on `agent_end`, so nothing announced before it means idle.
 */
export const PI_IDLE_PROBE = 'agent-mux-idle';

/**
 * `agent_end` does not always end what pi does for a prompt: pi (0.73.1) retries a failure it
 * deems transient (`auto_retry_start` … `auto_retry_end`) and compacts then retries a context
 * overflow (`compaction_start` … `compaction_end`), each announced right after `agent_end`; omp
 * (18.2.3) retries inside the request instead. Print mode waits for all that by itself; in RPC
 * mode, where the run ends by closing pi's stdin, the controller asks `get_session_stats` at each
 * `agent_end` (pi-rpc.ts), and the run is over when that answer finds pi idle with nothing
 * announced since.
 */
export function piAgentEnded(state: PiTranslatorState): void {
  state.continuing = 'asking';
}

/** A record that says pi went on by itself (a retry, a compaction, another run of the agent). */
export function piWentOn(state: PiTranslatorState): void {
  if (state.continuing !== undefined) state.continuing = 'busy';
}

/** The answer to the idle probe: the run is over if pi is idle and announced nothing since `agent_end`. */
export function piIdleAnswer(data: unknown, state: PiTranslatorState): void {
  if (state.continuing !== 'asking') return;
  if (isObj(data) && (data.isStreaming === true || data.isCompacting === true)) return;
  state.continuing = undefined;
  state.terminal = true;
}

/** `auto_retry_end` (failed) or `compaction_end` (no retry): what pi went on with is over, and the run with it. */
export function piContinuationEnded(record: Record<string, unknown>, state: PiTranslatorState): void {
  const over =
    (record.type === 'auto_retry_end' && record.success === false) ||
    (record.type === 'compaction_end' && record.willRetry !== true);
  if (!over || state.continuing === undefined) return;
  state.continuing = undefined;
  state.terminal = true;
}
