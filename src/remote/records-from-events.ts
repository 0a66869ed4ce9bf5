import { exhaustive } from '../core/events/exhaustive.ts';
import type { AgentEvent, RunTotals } from '../core/events/index.ts';

/** The cost Process-protocol records carry: the run's running total. */
export interface RecordCost {
  inputTokens: number;
  outputTokens: number;
  usd: number;
}

/** The Process protocol's agent → adapter records, as the ca-http-v1 SSE stream carries them. */
export type AgentRecord =
  | { type: 'progress'; summary: string; beliefs?: unknown[]; attempted?: unknown[]; cost?: RecordCost }
  | { type: 'tool_call'; id: string; tool: string; args: unknown }
  | { type: 'comment'; text: string; mentions: string[] }
  | { type: 'complete'; output: unknown; cost: RecordCost }
  | { type: 'failed'; reason: string; details?: string; cost: RecordCost };

/**
 * Turns a local run's normalized events back into Process-protocol records:
 * `progress` → progress; `comment` → comment; the `text_delta`s of a message → one progress whose
 * summary is the message's text, at `message_stop`; `cost` → the run's totals (as the core stamps them), attached to the next
 * progress (when it changed) and to the final record; `run_end` → `complete` or `failed`.
 * `tool_call` records are not made here: the session's tool host sends them. Everything else is dropped.
 */
export class RecordsFromEvents {
  readonly #text = new Map<string, string>();
  readonly #ownToolSteps: boolean;

  /**
   * `ownToolSteps`: the agent works with tools of its own on this host (plain ca-http-v1, no
   * caller-tools): each of its tool calls becomes a `progress` record (`⚙ <tool> <input>`, and a
   * failed result `✗ <tool>: <error>`), so the caller still sees every step. Off when its tools are
   * the caller's (the caller runs, and shows, each call itself).
   */
  constructor(options: { ownToolSteps?: boolean } = {}) {
    this.#ownToolSteps = options.ownToolSteps ?? false;
  }
  #cost: RecordCost = { inputTokens: 0, outputTokens: 0, usd: 0 };
  #costChanged = false;

  #held: Extract<AgentRecord, { type: 'progress' }> | undefined;

  /**
   * The records `event` completes. A progress record is held until the next event that is not a
   * `cost` (or `flush()`), so that a cost reported with it (the Process protocol's `progress.cost`) is attached.
   */
  translate(event: AgentEvent): AgentRecord[] {
    if (event.type === 'cost') {
      this.#translate(event);
      if (this.#held) this.#held = this.#withCost(this.#held);
      return [];
    }
    const out = this.flush();
    for (const record of this.#translate(event)) {
      if (record.type === 'progress') {
        out.push(...this.flush());
        this.#held = record;
      } else {
        out.push(record);
      }
    }
    return out;
  }

  /** True while a progress record is held back. */
  get holding(): boolean {
    return this.#held !== undefined;
  }

  /** The held progress record, if any. */
  flush(): AgentRecord[] {
    const held = this.#held;
    this.#held = undefined;
    return held ? [held] : [];
  }

  #translate(event: AgentEvent): AgentRecord[] {
    switch (event.type) {
      case 'progress':
        return [
          this.#withCost({
            type: 'progress',
            summary: event.summary,
            ...(event.beliefs ? { beliefs: event.beliefs } : {}),
            ...(event.attempted ? { attempted: event.attempted } : {}),
          }),
        ];
      case 'comment':
        return [{ type: 'comment', text: event.text, mentions: [...event.mentions] }];
      case 'text_delta': {
        const key = event.messageId ?? '';
        this.#text.set(key, (this.#text.get(key) ?? '') + event.delta);
        return [];
      }
      case 'message_stop': {
        const key = event.messageId ?? '';
        const text = (event.text ?? this.#text.get(key) ?? '').trim();
        this.#text.delete(key);
        return text ? [this.#withCost({ type: 'progress', summary: text })] : [];
      }
      case 'tool_call_ready':
        return this.#ownToolSteps
          ? [
              this.#withCost({
                type: 'progress',
                summary: `⚙ ${event.toolName} ${clip(JSON.stringify(event.input ?? {}))}`,
              }),
            ]
          : [];
      case 'tool_result':
        return this.#ownToolSteps && event.isError
          ? [{ type: 'progress', summary: `✗ ${event.toolName ?? 'tool'}: ${clip(textOf(event.output))}` }]
          : [];
      case 'cost':
        // The run's totals as the core's emitter stamped them (it sums increments and running totals).
        if (event.totals) {
          this.#cost = recordCost(event.totals);
          this.#costChanged = true;
        }
        return [];
      case 'run_end': {
        const cost = recordCost(event.totals);
        return event.reason === 'completed'
          ? [{ type: 'complete', output: event.output ?? null, cost }]
          : [
              {
                type: 'failed',
                reason: event.reason,
                ...(event.message ? { details: event.message } : {}),
                cost,
              },
            ];
      }
      // No record of their own.
      case 'auth_error':
      case 'rate_limit_error':
      case 'context_exceeded':
      case 'crash':
      case 'error':
      case 'debug':
      case 'log':
      case 'message_start':
      case 'thinking_start':
      case 'thinking_delta':
      case 'thinking_stop':
      case 'image_output':
      case 'file_output':
      case 'notice':
      case 'session_start':
      case 'session_resume':
      case 'session_fork':
      case 'turn_start':
      case 'turn_end':
      case 'tool_call_start':
      case 'tool_input_delta':
      case 'mcp_tool_call_start':
      case 'mcp_tool_result':
      case 'skill_loaded':
      case 'skill_invoked':
      case 'plugin_loaded':
      case 'plugin_invoked':
      case 'approval_request':
      case 'approval_granted':
      case 'approval_denied':
        return [];
      default:
        exhaustive(event);
        return [];
    }
  }

  /** The run's running total so far. */
  get cost(): RecordCost {
    return { ...this.#cost };
  }

  #withCost<R extends { type: 'progress'; cost?: RecordCost }>(record: R): R {
    if (!this.#costChanged) return record;
    this.#costChanged = false;
    return { ...record, cost: this.cost };
  }
}

/** At most 300 characters, on one line. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

function recordCost(totals: RunTotals): RecordCost {
  return { inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, usd: totals.usd };
}
