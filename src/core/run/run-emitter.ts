import type { CostTracker } from '../cost/cost-tracker.ts';
import type { AgentEvent, EventDraft, EventOf, RunTotals } from '../events/index.ts';
import type { Redactor } from '../redact/redactor.ts';
import { StreamRedactor } from '../redact/stream-redactor.ts';
import type { EventQueue } from './event-queue.ts';

export interface RunEmitterOptions {
  runId: string;
  agent: string;
  debug: boolean;
  redactor: Redactor;
  costs: CostTracker;
  onEvent?: (event: AgentEvent) => void;
}

type Listener = (event: AgentEvent) => void;

/**
 * The one place events pass through: stamps run id, agent and time, prices cost events,
 * redacts secrets, then hands the event to listeners and the consumer's queue, in order.
 */
export class RunEmitter {
  readonly #runId: string;
  readonly #agent: string;
  readonly #debug: boolean;
  readonly #redactor: Redactor;
  readonly #costs: CostTracker;
  readonly #listeners: Listener[] = [];
  #queue: EventQueue<AgentEvent> | undefined;
  #ended = false;
  #unpricedReported = false;
  /** The open text or thinking stream whose tail is held back, so a secret split across deltas is caught. */
  #held: { type: 'text_delta' | 'thinking_delta'; messageId: string | undefined; stream: StreamRedactor } | undefined;
  /** Called after each priced cost event with the totals so far. */
  onCost: ((totals: RunTotals) => void) | undefined;

  constructor(options: RunEmitterOptions) {
    this.#runId = options.runId;
    this.#agent = options.agent;
    this.#debug = options.debug;
    this.#redactor = options.redactor;
    this.#costs = options.costs;
    if (options.onEvent) this.#listeners.push(options.onEvent);
  }

  attachQueue(queue: EventQueue<AgentEvent>): void {
    this.#queue = queue;
  }

  /** Adds a listener; returns the function that removes it. */
  addListener(listener: Listener): () => void {
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index >= 0) this.#listeners.splice(index, 1);
    };
  }

  get totals(): RunTotals {
    return this.#costs.totals;
  }

  /** Stamps and delivers one draft. `raw` is kept only in debug mode. Ignored after the run ended. */
  emit(draft: EventDraft, raw?: unknown): void {
    if (this.#ended) return;
    if (draft.type === 'text_delta' || draft.type === 'thinking_delta') {
      const released = this.#holdBack(draft.type, draft.messageId, draft.delta);
      if (released === undefined) return;
      draft = { ...draft, delta: released };
    } else this.#releaseHeld();
    this.#emitNow(draft, raw);
  }

  #emitNow(draft: EventDraft, raw?: unknown): void {
    // Only the draft and raw can hold secrets; the stamps are ours (rescanning the run id costs ~10 % of a run's CPU).
    let event = {
      ...this.#redactor.redact(draft),
      runId: this.#runId,
      agent: this.#agent,
      timestamp: Date.now(),
    } as AgentEvent;
    if (this.#debug && raw !== undefined) event.raw = this.#redactor.redact(raw);
    else if (!this.#debug && event.raw !== undefined) delete event.raw;
    let unpriced: string | undefined;
    if (event.type === 'cost') [event, unpriced] = this.#price(event);
    this.#deliver(event);
    if (unpriced !== undefined) {
      this.#deliver({
        type: 'debug',
        runId: this.#runId,
        agent: this.#agent,
        timestamp: event.timestamp,
        message: `no price known for cost model ${unpriced}; token costs count as USD 0`,
      });
    }
    if (event.type === 'cost') this.onCost?.(this.#costs.totals);
  }

  /** Delivers the terminal event; nothing is emitted after it. */
  end(draft: Omit<EventOf<'run_end'>, 'runId' | 'agent' | 'timestamp' | 'totals'>): EventOf<'run_end'> {
    if (!this.#ended) this.#releaseHeld();
    const event: EventOf<'run_end'> = this.#redactor.redact({
      ...draft,
      runId: this.#runId,
      agent: this.#agent,
      timestamp: Date.now(),
      totals: { ...this.#costs.totals },
    });
    if (!this.#ended) {
      this.#ended = true;
      this.#deliver(event);
    }
    return event;
  }

  /**
   * With literal secrets known, a delta's last characters wait for the next delta of the same
   * stream (or any other event), so a secret split across deltas is redacted whole. Returns the
   * text to deliver now; undefined when all of it waits.
   */
  #holdBack(type: 'text_delta' | 'thinking_delta', messageId: string | undefined, delta: string): string | undefined {
    if (this.#redactor.maxSecretMatchLength === 0) return delta;
    if (this.#held && (this.#held.type !== type || this.#held.messageId !== messageId)) this.#releaseHeld();
    this.#held ??= { type, messageId, stream: new StreamRedactor(this.#redactor) };
    const released = this.#held.stream.push(delta);
    return released === '' ? undefined : released;
  }

  /** Delivers what a delta stream held back, as one more delta of it. */
  #releaseHeld(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    const rest = held.stream.end();
    if (rest === '') return;
    this.#emitNow({
      type: held.type,
      delta: rest,
      ...(held.messageId === undefined ? {} : { messageId: held.messageId }),
    });
  }

  /** Prices a cost event; also returns the model name the first time one could not be priced. */
  #price(event: EventOf<'cost'>): [EventOf<'cost'>, string | undefined] {
    const priced = this.#costs.add(event);
    let unpriced: string | undefined;
    if (priced.unpriced && !this.#unpricedReported) {
      this.#unpricedReported = true;
      unpriced = priced.model ?? '(none)';
    }
    return [{ ...event, usd: priced.usd, totals: this.#costs.totals }, unpriced];
  }

  #delivering = false;
  #backlog: AgentEvent[] = [];

  /**
   * Listeners may emit while an event is being delivered (a controller answering a tool call);
   * such events wait until the current one has reached every listener and the queue, so
   * everyone sees one order and timestamps never go backwards.
   */
  #deliver(event: AgentEvent): void {
    if (this.#delivering) {
      this.#backlog.push(event);
      return;
    }
    this.#delivering = true;
    try {
      this.#deliverNow(event);
      while (this.#backlog.length > 0) {
        const next = this.#backlog.shift() as AgentEvent;
        this.#deliverNow(next);
      }
    } finally {
      this.#delivering = false;
    }
  }

  #deliverNow(event: AgentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not break the run or the other listeners.
      }
    }
    this.#queue?.push(event);
  }
}
