/** The pretty renderer's spinner: the run's status on a terminal, redrawn as time goes by. */
import type { Writable } from 'node:stream';
import yoctoSpinner, { type Spinner } from 'yocto-spinner';

/**
 * A spinner on `stream` whose text, `text()`, is redrawn every 100 ms while it spins; nothing at
 * all where `stream` is not a terminal.
 */
export class StatusSpinner {
  readonly #stream: Writable & { isTTY?: boolean };
  readonly #text: () => string;
  #spinner: Spinner | undefined;
  #ticker: NodeJS.Timeout | undefined;

  constructor(stream: Writable & { isTTY?: boolean }, text: () => string) {
    this.#stream = stream;
    this.#text = text;
  }

  /** Starts spinning, unless it already spins or the stream is not a terminal. */
  start(): void {
    if (!this.#stream.isTTY || this.#spinner) return;
    this.#spinner = yoctoSpinner({ stream: this.#stream, handleSignals: false });
    this.#refresh();
    this.#spinner.start();
    this.#ticker = setInterval(() => this.#refresh(), 100);
    this.#ticker.unref();
  }

  /** Stops spinning and erases the spinner. */
  stop(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.#spinner?.stop();
    this.#spinner?.clear();
    this.#spinner = undefined;
  }

  /** Erases the spinner's line until its next redraw, so that a line can be written. */
  clear(): void {
    this.#spinner?.clear();
  }

  #refresh(): void {
    if (this.#spinner) this.#spinner.text = this.#text();
  }
}
