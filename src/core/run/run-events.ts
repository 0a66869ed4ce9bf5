import type { AgentEvent } from '../events/index.ts';
import type { Child } from './child.ts';
import { EventQueue } from './event-queue.ts';
import type { RunEmitter } from './run-emitter.ts';

/**
 * A run's `events` iterable, with backpressure: the queue is made when it is first read (events are
 * buffered from then on), and a slow reader pauses the running program until it catches up.
 */
export class RunEvents implements AsyncIterable<AgentEvent> {
  readonly #emitter: RunEmitter;
  #queue: EventQueue<AgentEvent> | undefined;
  #child: Child | undefined;
  #paused = false;

  constructor(emitter: RunEmitter) {
    this.#emitter = emitter;
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (!this.#queue) {
      this.#queue = new EventQueue<AgentEvent>({
        onPressure: (pause) => {
          this.#paused = pause;
          if (pause) this.#child?.pause();
          else this.#child?.resume();
        },
      });
      this.#emitter.attachQueue(this.#queue);
    }
    return this.#queue[Symbol.asyncIterator]();
  }

  /** The program now running (undefined between attempts); it starts paused if the reader is behind. */
  setChild(child: Child | undefined): void {
    this.#child = child;
    if (child && this.#paused) child.pause();
  }

  /** Ends the iteration after the events already queued. */
  close(): void {
    this.#queue?.close();
  }
}
