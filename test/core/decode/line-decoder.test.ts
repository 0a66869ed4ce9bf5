import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from '../../../src/core/decode/line-decoder.ts';

type Output = { line: string } | { overflow: number };

function collect(maxLineBytes?: number) {
  const out: Output[] = [];
  const decoder = new LineDecoder({
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    onLine: (line) => out.push({ line }),
    onOverflow: (overflow) => out.push({ overflow }),
  });
  return { decoder, out };
}

function lines(out: Output[]): string[] {
  return out.flatMap((o) => ('line' in o ? [o.line] : []));
}

function decodeChunks(chunks: readonly (Uint8Array | string)[], maxLineBytes?: number): Output[] {
  const { decoder, out } = collect(maxLineBytes);
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return out;
}

/** The reference: what splitting the whole text at once gives. */
function referenceLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '');
}

/** The reference with a byte limit: over-long lines become overflow reports of their bytes without `\n`. */
function referenceOutput(text: string, max: number): Output[] {
  const out: Output[] = [];
  for (const segment of text.split('\n')) {
    const content = segment.replace(/\r$/, '');
    if (Buffer.byteLength(content) > max) out.push({ overflow: Buffer.byteLength(segment) });
    else if (content.trim() !== '') out.push({ line: content });
  }
  return out;
}

/** Splits bytes at the given cut points (any byte offsets, sorted and deduplicated here). */
function splitAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(start, p));
    start = p;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** Characters that stress the decoder: line breaks, blanks, multi-byte UTF-8, astral code points. */
const tricky = fc.constantFrom(
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  ' ',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
  'é',
  '€',
  '😀',
  '{"a":1}',
  '\u0000',
);
const textUnit = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: tricky },
);
const text = fc.string({ unit: textUnit, maxLength: 60 });
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe('LineDecoder', () => {
  it('passes complete lines of one chunk', () => {
    expect(lines(decodeChunks(['{"a":1}\n{"b":2}\n']))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('joins a line split across chunks', () => {
    expect(lines(decodeChunks(['{"type":"te', 'xt","text":"hi', '"}\n', 'next\n']))).toEqual([
      '{"type":"text","text":"hi"}',
      'next',
    ]);
  });

  it('joins a line split across many chunks with no newline in between', () => {
    expect(lines(decodeChunks(['a', 'b', 'c', '', 'd\ne', 'f']))).toEqual(['abcd', 'ef']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('héllo €uro 😀\n', 'utf8');
    for (let i = 0; i <= bytes.length; i++) {
      expect(lines(decodeChunks([bytes.subarray(0, i), bytes.subarray(i)]))).toEqual(['héllo €uro 😀']);
    }
  });

  it('decodes every byte fed alone', () => {
    const bytes = Buffer.from('añb\r\n😀\n\nlast', 'utf8');
    const chunks = [...bytes].map((b) => Uint8Array.of(b));
    expect(lines(decodeChunks(chunks))).toEqual(['añb', '😀', 'last']);
  });

  it('strips one trailing \\r, also when the \\r and \\n arrive in different chunks', () => {
    expect(lines(decodeChunks(['a\r\nb\r', '\nc\r\r\n']))).toEqual(['a', 'b', 'c\r']);
  });

  it('keeps a \\r inside a line', () => {
    expect(lines(decodeChunks(['50%\r100%\n']))).toEqual(['50%\r100%']);
  });

  it('skips empty and whitespace-only lines but keeps the spaces of other lines', () => {
    expect(lines(decodeChunks(['\n\n  \n\t\r\n\u00a0\u2028\n  indented  \n\r\n']))).toEqual(['  indented  ']);
  });

  it('flushes a last line without a newline on end()', () => {
    const { decoder, out } = collect();
    decoder.push('one\ntwo');
    expect(lines(out)).toEqual(['one']);
    decoder.end();
    expect(lines(out)).toEqual(['one', 'two']);
  });

  it('strips \\r and skips blanks in the last line too', () => {
    expect(lines(decodeChunks(['a\nb\r']))).toEqual(['a', 'b']);
    expect(lines(decodeChunks(['a\n   ']))).toEqual(['a']);
  });

  it('emits nothing for no input, and end() twice is harmless', () => {
    const { decoder, out } = collect();
    decoder.end();
    decoder.end();
    expect(out).toEqual([]);
  });

  it('can be reused after end()', () => {
    const { decoder, out } = collect();
    decoder.push('a');
    decoder.end();
    decoder.push('b');
    decoder.end();
    expect(lines(out)).toEqual(['a', 'b']);
  });

  it('accepts strings, Buffers and plain Uint8Arrays (also views into a larger buffer) mixed', () => {
    const backing = new Uint8Array([0x78, 0x61, 0x0a, 0x62, 0x78]);
    const view = backing.subarray(1, 4); // "a\nb"
    expect(lines(decodeChunks([view, 'c\n', Buffer.from('d\n')]))).toEqual(['a', 'bc', 'd']);
  });

  it('joins a string chunk to bytes that end inside a UTF-8 character', () => {
    const euro = Buffer.from('€', 'utf8');
    expect(lines(decodeChunks([euro.subarray(0, 1), euro.subarray(1), '!\n']))).toEqual(['€!']);
  });

  it('copies an unfinished line, so the caller may reuse its chunk buffer', () => {
    const { decoder, out } = collect();
    const chunk = Buffer.from('abc');
    decoder.push(chunk);
    chunk.write('xyz');
    decoder.push('\n');
    expect(lines(out)).toEqual(['abc']);
  });

  it('turns invalid UTF-8 into U+FFFD without throwing', () => {
    expect(lines(decodeChunks([Uint8Array.of(0x61, 0xff, 0x62, 0x0a)]))).toEqual(['a\ufffdb']);
  });

  it('passes a 10 MiB line intact, in one chunk and in 64 KiB chunks', () => {
    const payload = `{"text":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    const bytes = Buffer.from(`${payload}\n{"after":true}\n`, 'utf8');
    expect(lines(decodeChunks([bytes]))).toEqual([payload, '{"after":true}']);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 65_536) chunks.push(bytes.subarray(i, i + 65_536));
    const out = decodeChunks(chunks);
    expect(out).toHaveLength(2);
    expect(lines(out)[0] === payload).toBe(true);
  });

  it('defaults to a 16 MiB limit', () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
  });

  it('rejects a limit that is not a positive integer', () => {
    const onLine = () => {};
    expect(() => new LineDecoder({ maxLineBytes: 0, onLine })).toThrow(RangeError);
    expect(() => new LineDecoder({ maxLineBytes: 1.5, onLine })).toThrow(RangeError);
    expect(() => new LineDecoder({ maxLineBytes: Number.NaN, onLine })).toThrow(RangeError);
  });

  describe('overflow', () => {
    it('drops an over-long line within one chunk and reports its bytes', () => {
      expect(decodeChunks(['ok\n0123456789\nok2\n'], 5)).toEqual([{ line: 'ok' }, { overflow: 10 }, { line: 'ok2' }]);
    });

    it('passes a line of exactly the limit, CRLF not counted', () => {
      expect(decodeChunks(['12345\n12345\r\n123456\r\n'], 5)).toEqual([
        { line: '12345' },
        { line: '12345' },
        { overflow: 7 },
      ]);
    });

    it('counts bytes, not characters', () => {
      expect(decodeChunks(['éé\néé€\n'], 4)).toEqual([{ line: 'éé' }, { overflow: 7 }]);
    });

    it('discards an over-long line spread over chunks until the next newline, reporting once', () => {
      const { decoder, out } = collect(8);
      decoder.push('first\n0123');
      decoder.push('4567');
      decoder.push('89ab');
      expect(decoder.bufferedBytes).toBe(0);
      decoder.push('cdef');
      expect(out).toEqual([{ line: 'first' }]);
      decoder.push('gh\nnext\n');
      decoder.end();
      expect(out).toEqual([{ line: 'first' }, { overflow: 18 }, { line: 'next' }]);
    });

    it('reports an over-long last line on end()', () => {
      expect(decodeChunks(['ok\n', 'abcdef', 'ghij'], 4)).toEqual([{ line: 'ok' }, { overflow: 10 }]);
      expect(decodeChunks(['ok\nabcdef'], 4)).toEqual([{ line: 'ok' }, { overflow: 6 }]);
    });

    it('never holds more than maxLineBytes + 1 bytes of a line', () => {
      const { decoder, out } = collect(1024);
      const chunk = 'y'.repeat(1000);
      for (let i = 0; i < 5000; i++) {
        decoder.push(chunk);
        expect(decoder.bufferedBytes).toBeLessThanOrEqual(1025);
      }
      decoder.push('\ndone\n');
      expect(out).toEqual([{ overflow: 5_000_000 }, { line: 'done' }]);
    });

    it('keeps the limit + 1 byte when it may be the \\r of a CRLF', () => {
      const { decoder, out } = collect(3);
      decoder.push('abc\r');
      expect(decoder.bufferedBytes).toBe(4);
      decoder.push('\n');
      expect(out).toEqual([{ line: 'abc' }]);
    });

    it('drops silently without onOverflow', () => {
      const seen: string[] = [];
      const decoder = new LineDecoder({ maxLineBytes: 2, onLine: (l) => seen.push(l) });
      decoder.push('abc\nab\nabc');
      decoder.push('def\nx');
      decoder.end();
      expect(seen).toEqual(['ab', 'x']);
    });
  });

  it('lets an error from onLine propagate', () => {
    const decoder = new LineDecoder({
      onLine: () => {
        throw new Error('boom');
      },
    });
    expect(() => decoder.push('a\n')).toThrow('boom');
  });

  describe('properties', () => {
    it('gives the reference lines for any text split at any byte positions', () => {
      fc.assert(
        fc.property(text, cuts, (input, cutPoints) => {
          const chunks = splitAt(Buffer.from(input, 'utf8'), cutPoints);
          expect(lines(decodeChunks(chunks))).toEqual(referenceLines(input));
        }),
        { numRuns: 10_000 },
      );
    });

    it('gives the reference lines for any text pushed as string pieces', () => {
      fc.assert(
        fc.property(fc.array(text, { maxLength: 6 }), (pieces) => {
          expect(lines(decodeChunks(pieces))).toEqual(referenceLines(pieces.join('')));
        }),
        { numRuns: 10_000 },
      );
    });

    it('drops exactly the lines over the limit, reporting each once, for any split', () => {
      const linesArb = fc.array(
        fc.record({
          body: fc.string({ unit: textUnit.filter((u) => !u.includes('\n')), maxLength: 14 }),
          crlf: fc.boolean(),
        }),
        { maxLength: 8 },
      );
      fc.assert(
        fc.property(
          linesArb,
          fc.boolean(),
          fc.integer({ min: 1, max: 12 }),
          cuts,
          (ls, finalNewline, max, cutPoints) => {
            const input = ls.map((l) => l.body + (l.crlf ? '\r' : '')).join('\n') + (finalNewline ? '\n' : '');
            const chunks = splitAt(Buffer.from(input, 'utf8'), cutPoints);
            expect(decodeChunks(chunks, max)).toEqual(referenceOutput(input, max));
          },
        ),
        { numRuns: 10_000 },
      );
    });
  });
});
