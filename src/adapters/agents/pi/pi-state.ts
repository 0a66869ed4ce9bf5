import type { RunRequest, TranslatorState } from '../../../core/adapter/index.ts';
import type { StreamLedger } from '../../shared/stream-ledger.ts';

/** The pi (and omp) translator's state. */
export interface PiTranslatorState extends TranslatorState {
  request?: RunRequest;
  /** Messages, thinking and tool calls open; tool durations from the init clock. */
  ledger: StreamLedger;
  turn: number;
  /** Messages opened so far: the next one is `msg_<count + 1>`. */
  messageCount: number;
  /** contentIndex → tool call id, for `toolcall_delta` records that carry no id (omp). */
  toolIndex: Map<number, string>;
  /** The last assistant message's failure, if it ended with `stopReason: error|aborted`. */
  lastFailure?: string;
  lastText?: string;
  /**
   * After an `agent_end`: `asking` until the idle probe's answer, `busy` once pi went on by itself
   * (a retry, a compaction); unset when the run is over or no `agent_end` came yet (pi-run-end.ts).
   */
  continuing?: 'asking' | 'busy';
}
