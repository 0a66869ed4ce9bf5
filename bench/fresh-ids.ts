import { Buffer } from 'node:buffer';

/**
 * Keys whose string values are identifiers: `id`, `thread_id`, `tool_use_id`, `toolCallId`,
 * `messageId`, `sessionID`, `callID`, … (snake, camel and OpenCode's upper-case `ID`).
 */
export const idKey = /(^|_)id$|Id$|ID$/;

/** Marks where a copy's suffix goes in a line's template; never part of a recording. */
const MARK = '\u0000copy\u0000';
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);

/**
 * One recorded stream (JSON lines) as a template from which copies with fresh ids are made: every
 * string value under an id-like key (at any depth) gets a per-copy suffix, so that a translator that
 * skips an id it has seen does the full work on every copy, as it would on a long real run. Numeric
 * strings (Copilot's `turnId: "0"`, an index rather than an identity) are left alone. Lines that are
 * not JSON objects or arrays are kept verbatim.
 */
export class FreshIdStream {
  readonly #parts: string[][];
  readonly bytesPerCopy: number;

  constructor(stream: Buffer) {
    const text = stream.toString('utf8');
    if (text.includes(MARK_JSON)) throw new Error('the recording contains the copy marker');
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    this.#parts = lines.map((line) => templateOf(line).split(MARK_JSON));
    this.bytesPerCopy = Buffer.byteLength(this.copy(0));
  }

  /** Copy `n` (0 is the recording with its ids unchanged, apart from re-serialisation), newline-terminated. */
  copy(n: number): string {
    const suffix = n === 0 ? '' : `~c${n}`;
    let out = '';
    for (const parts of this.#parts) out += `${parts.join(suffix)}\n`;
    return out;
  }

  /** Copies 0 … count-1, concatenated. */
  copies(count: number): Buffer {
    const out: Buffer[] = [];
    for (let n = 0; n < count; n++) out.push(Buffer.from(this.copy(n), 'utf8'));
    return Buffer.concat(out);
  }
}

function templateOf(line: string): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof value !== 'object' || value === null) return line;
  return JSON.stringify(markIds(value));
}

function markIds(value: unknown, key?: string): unknown {
  if (typeof value === 'string') {
    return key !== undefined && idKey.test(key) && value !== '' && !/^\d+$/.test(value) ? value + MARK : value;
  }
  if (Array.isArray(value)) return value.map((item) => markIds(item, key));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = markIds(v, k);
    return out;
  }
  return value;
}
