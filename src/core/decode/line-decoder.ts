import { Buffer } from 'node:buffer';

/** The default `maxLineBytes`: 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const NON_BLANK = /\S/;

export interface LineDecoderOptions {
  /**
   * The longest line passed on, in UTF-8 bytes, not counting its `\n` or `\r\n`. A longer line is dropped
   * whole: at most `maxLineBytes + 1` bytes of it are ever held, the rest is discarded up to the next `\n`.
   * Default `DEFAULT_MAX_LINE_BYTES` (16 MiB).
   */
  maxLineBytes?: number;
  /** Called once per non-blank line, in order, without its `\n` and without one trailing `\r`. */
  onLine: (line: string) => void;
  /**
   * Called once per dropped over-long line, when that line ends (at its `\n` or at `end()`), with the number
   * of bytes dropped: the whole line except its `\n`. Default: drop silently.
   */
  onOverflow?: (droppedBytes: number) => void;
}

/**
 * Splits a child process's output into lines (JSON lines, or text lines).
 *
 * - Chunks may be split anywhere, even inside a multi-byte UTF-8 character: lines are cut at the `0x0A`
 *   byte and each whole line is decoded once. Invalid UTF-8 becomes U+FFFD.
 * - One trailing `\r` is removed (CRLF output); empty and whitespace-only lines are skipped.
 * - String chunks are encoded to UTF-8 first, so strings and bytes may be mixed.
 * - Bytes of an unfinished line are copied, so a pushed chunk may be reused by the caller afterwards.
 * - An error thrown by a callback propagates out of `push` or `end`; the rest of that chunk is then lost.
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOverflow: ((droppedBytes: number) => void) | undefined;
  /** Pieces of the line in progress; each is owned by the decoder. */
  #parts: Buffer[] = [];
  #pendingBytes = 0;
  /** True while discarding the rest of an over-long line. */
  #dropping = false;
  #droppedBytes = 0;

  constructor(options: LineDecoderOptions) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${max}`);
    }
    this.#maxLineBytes = max;
    this.#onLine = options.onLine;
    this.#onOverflow = options.onOverflow;
  }

  /** Bytes of the unfinished line held now (never more than `maxLineBytes + 1`). */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  /** Feeds the next piece of output. */
  push(chunk: Uint8Array | string): void {
    const owned = typeof chunk === 'string';
    const buf = owned ? Buffer.from(chunk, 'utf8') : toBuffer(chunk);
    const length = buf.length;
    let newline = buf.indexOf(LF);
    if (newline === -1) {
      this.#append(buf, 0, length, owned);
      return;
    }
    let start = 0;
    if (this.#pendingBytes > 0 || this.#dropping) {
      this.#finishPending(buf, newline);
      start = newline + 1;
      newline = buf.indexOf(LF, start);
    }
    const last = buf.lastIndexOf(LF);
    if (newline !== -1 && last - start <= this.#maxLineBytes) {
      // Every complete line of this chunk fits the limit: decode them all at once (a newline
      // byte is never inside a UTF-8 sequence, so this decodes exactly as line by line would).
      this.#emitText(buf.toString('utf8', start, last));
      start = last + 1;
    } else {
      while (newline !== -1) {
        this.#emit(buf, start, newline);
        start = newline + 1;
        newline = buf.indexOf(LF, start);
      }
    }
    if (start < length) this.#append(buf, start, length, owned);
  }

  /** Flushes a last line that has no trailing newline. The decoder may be reused afterwards. */
  end(): void {
    if (this.#dropping) {
      const dropped = this.#droppedBytes;
      this.#dropping = false;
      this.#droppedBytes = 0;
      this.#onOverflow?.(dropped);
      return;
    }
    const total = this.#pendingBytes;
    if (total === 0) return;
    const parts = this.#parts;
    this.#parts = [];
    this.#pendingBytes = 0;
    const line = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
    this.#emit(line, 0, total);
  }

  /** Keeps `buf[start, end)`, the beginning (or middle) of a line that has not ended yet. */
  #append(buf: Buffer, start: number, end: number, owned: boolean): void {
    const size = end - start;
    if (size === 0) return;
    if (this.#dropping) {
      this.#droppedBytes += size;
      return;
    }
    const total = this.#pendingBytes + size;
    // One byte of slack: the last byte may be the `\r` of a `\r\n`, which does not count.
    if (total > this.#maxLineBytes + 1) {
      this.#parts = [];
      this.#pendingBytes = 0;
      this.#dropping = true;
      this.#droppedBytes = total;
      return;
    }
    let part: Buffer;
    if (owned) {
      part = buf.subarray(start, end);
    } else {
      part = Buffer.allocUnsafe(size);
      buf.copy(part, 0, start, end);
    }
    this.#parts.push(part);
    this.#pendingBytes = total;
  }

  /** Ends the line in progress with `buf[0, newline)`. */
  #finishPending(buf: Buffer, newline: number): void {
    if (this.#dropping) {
      const dropped = this.#droppedBytes + newline;
      this.#dropping = false;
      this.#droppedBytes = 0;
      this.#onOverflow?.(dropped);
      return;
    }
    const parts = this.#parts;
    const total = this.#pendingBytes + newline;
    this.#parts = [];
    this.#pendingBytes = 0;
    if (total > this.#maxLineBytes + 1) {
      this.#onOverflow?.(total);
      return;
    }
    if (newline > 0) parts.push(buf.subarray(0, newline));
    const line = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
    this.#emit(line, 0, total);
  }

  /** Passes on each line of `text`, complete lines joined by `\n` (no trailing one). */
  #emitText(text: string): void {
    const onLine = this.#onLine;
    let from = 0;
    for (;;) {
      const to = text.indexOf('\n', from);
      const end = to === -1 ? text.length : to;
      let stop = end;
      if (stop > from && text.charCodeAt(stop - 1) === 13) stop--;
      if (stop > from) {
        const first = text.charCodeAt(from);
        const line = text.slice(from, stop);
        // A printable ASCII first character proves the line is not blank without scanning it.
        if ((first > 0x20 && first < 0x7f) || NON_BLANK.test(line)) onLine(line);
      }
      if (to === -1) return;
      from = to + 1;
    }
  }

  /** Passes on the complete line `buf[start, end)` (without its `\n`). */
  #emit(buf: Buffer, start: number, end: number): void {
    let stop = end;
    if (stop > start && buf[stop - 1] === CR) stop--;
    if (stop - start > this.#maxLineBytes) {
      this.#onOverflow?.(end - start);
      return;
    }
    if (stop === start) return;
    const first = buf[start]!;
    const line = buf.toString('utf8', start, stop);
    // A printable ASCII first byte proves the line is not blank without scanning it.
    if ((first <= 0x20 || first >= 0x7f) && !NON_BLANK.test(line)) return;
    this.#onLine(line);
  }
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}
