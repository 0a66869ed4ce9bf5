import type { EventDraft } from '../events/index.ts';

/** A message for a running agent (`RunHandle.steer`): a user's words, and who they are from. */
export interface SteerMessage {
  text: string;
  /** Who wrote it, as the run's user knows them (`@alice`); shown with the notice. */
  from?: string;
}

/**
 * What became of a message: `delivered` — written to the agent's input, and a `steered` notice
 * follows where the agent took it; `queued` — the agent cannot take it now (no input while it runs,
 * its turn is over, the run is ending): the caller keeps it for the next turn.
 */
export type SteerOutcome = { kind: 'delivered' } | { kind: 'queued'; reason: string };

/** Where a running attempt takes messages: its stdin (`AgentInput`) or its controller's own way. */
export interface RunInput {
  send(message: SteerMessage): SteerOutcome;
}

/** Messages written to a running program's input and not yet taken by it. */
export interface AgentInputOptions {
  message: (text: string) => unknown;
  write: (line: unknown) => Promise<void>;
  closeStdin: () => void;
  emit: (draft: EventDraft) => void;
  /** When the run started (ms since the epoch): notices say when, in the run, a message was taken. */
  startedAt: number;
  now?: () => number;
}

const MAX_NOTICE_TEXT = 200;

/**
 * A running program's input for user messages mid-run (`SpawnPlan.input`): writes them, says where
 * the program took each (a `steered` notice, matched by text with what its translator lists in
 * `takenInputs`), and tells the attempt whether a terminal record may end the run: only when
 * nothing written waits, and then the input is closed so that the program ends by itself.
 */
export class AgentInput implements RunInput {
  readonly #options: AgentInputOptions;
  readonly #waiting: SteerMessage[] = [];
  #closed: string | undefined;

  constructor(options: AgentInputOptions) {
    this.#options = options;
  }

  send(message: SteerMessage): SteerOutcome {
    if (this.#closed !== undefined) return { kind: 'queued', reason: this.#closed };
    const text = message.text.trim();
    if (text === '') return { kind: 'queued', reason: 'the message is empty' };
    this.#waiting.push({ ...message, text });
    this.#options.write(this.#options.message(text)).catch(() => {
      const at = this.#waiting.findIndex((w) => w.text === text);
      if (at >= 0) this.#waiting.splice(at, 1);
    });
    return { kind: 'delivered' };
  }

  /** Reads what the program took since last time (and empties the translator's list). */
  observe(taken: string[] | undefined): void {
    if (taken === undefined || taken.length === 0) return;
    for (const text of taken.splice(0)) {
      const at = this.#waiting.findIndex((w) => w.text === text.trim());
      if (at < 0) continue; // the run's own prompt, echoed too
      const [message] = this.#waiting.splice(at, 1);
      if (message !== undefined) this.#options.emit(this.#notice(message));
    }
  }

  /** A terminal record: true when it ends the run (nothing waits); the input is closed then. */
  mayEnd(): boolean {
    if (this.#waiting.length > 0) return false;
    this.close('the agent has finished its turn');
    return true;
  }

  /** No more messages (the run ends or stops): what is sent from now on is queued with `reason`. */
  close(reason: string): void {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    this.#options.closeStdin();
  }

  #notice(message: SteerMessage): EventDraft {
    return steeredNotice(message, (this.#options.now ?? Date.now)() - this.#options.startedAt);
  }
}

/** The `steered` notice: a message entered the agent's input `afterMs` into the run. */
export function steeredNotice(message: SteerMessage, afterMs: number): EventDraft {
  const seconds = Math.max(0, Math.round(afterMs / 1000));
  const at = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
  const text = message.text.length > MAX_NOTICE_TEXT ? `${message.text.slice(0, MAX_NOTICE_TEXT - 1)}…` : message.text;
  const from = message.from ? ` from ${message.from}` : '';
  return {
    type: 'notice',
    code: 'steered',
    message: `a message${from} was delivered to the running agent at ${at}: "${text.replace(/\s+/g, ' ')}"`,
  };
}
