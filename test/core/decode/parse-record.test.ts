import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecord } from '../../../src/core/decode/parse-record.ts';

describe('parseRecord', () => {
  it('parses a JSON object line', () => {
    expect(parseRecord('{"type":"text","text":"hi"}', 'json-lines')).toEqual({
      kind: 'json',
      value: { type: 'text', text: 'hi' },
    });
  });

  it('parses a JSON array line', () => {
    expect(parseRecord('[1,"two",null]', 'json-lines')).toEqual({ kind: 'json', value: [1, 'two', null] });
  });

  it('allows whitespace and a byte-order mark around the JSON', () => {
    expect(parseRecord('  \t{"a":1}  ', 'json-lines')).toEqual({ kind: 'json', value: { a: 1 } });
    expect(parseRecord('\ufeff{"a":1}', 'json-lines')).toEqual({ kind: 'json', value: { a: 1 } });
  });

  it('reads any other line as text, even if it is valid JSON', () => {
    for (const line of ['Loading model...', '42', '"a string"', 'null', 'true', 'warning: {x}', '']) {
      expect(parseRecord(line, 'json-lines')).toEqual({ kind: 'text', line });
    }
  });

  it('reports a JSON-looking line that does not parse as malformed, with the parser message', () => {
    const line = '{"type":"text","text":"cut off';
    const record = parseRecord(line, 'json-lines');
    expect(record.kind).toBe('malformed');
    if (record.kind !== 'malformed') return;
    expect(record.line).toBe(line);
    let expected = '';
    try {
      JSON.parse(line);
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(record.error).toBe(expected);
    expect(record.error.length).toBeGreaterThan(0);
  });

  it('reports trailing garbage and a lone bracket as malformed', () => {
    expect(parseRecord('{"a":1} trailing', 'json-lines').kind).toBe('malformed');
    expect(parseRecord('[', 'json-lines').kind).toBe('malformed');
    expect(parseRecord('[INFO] started', 'json-lines').kind).toBe('malformed');
  });

  it('keeps the original line (untrimmed) in text and malformed records', () => {
    expect(parseRecord('  {bad', 'json-lines')).toMatchObject({ kind: 'malformed', line: '  {bad' });
    expect(parseRecord('  plain  ', 'json-lines')).toEqual({ kind: 'text', line: '  plain  ' });
  });

  it('reads a line that starts with the JSON as the trimmed line, whatever whitespace ends it', () => {
    // JSON.parse allows only space, tab, CR and LF around a value; trim() removes more.
    for (const tail of [' \t\r', '\u00a0', '\ufeff', '\u2028\u2029', '\u3000 ']) {
      expect(parseRecord(`{"a":1}${tail}`, 'json-lines')).toEqual({ kind: 'json', value: { a: 1 } });
      expect(parseRecord(`[2]${tail}`, 'json-lines')).toEqual({ kind: 'json', value: [2] });
    }
    // A malformed one reports the parser's message on the trimmed line, as a line with leading blanks does.
    const line = '{"a":1} x\u00a0';
    let expected = '';
    try {
      JSON.parse(line.trim());
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(parseRecord(line, 'json-lines')).toEqual({ kind: 'malformed', line, error: expected });
  });

  it('parses deeply nested JSON without throwing', () => {
    const line = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(['json', 'malformed']).toContain(parseRecord(line, 'json-lines').kind);
  });

  it('reads every line as text with the text protocol', () => {
    for (const line of ['{"a":1}', '[1]', '{bad', 'plain']) {
      expect(parseRecord(line, 'text')).toEqual({ kind: 'text', line });
    }
  });

  describe('properties', () => {
    it('never throws, and agrees with JSON.parse', () => {
      const line = fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.json().map((j) => ` ${j}`),
        // JSON first, then blanks (of JSON's and of trim's) or garbage.
        fc
          .tuple(
            fc.json(),
            fc.string({ unit: fc.constantFrom(' ', '\t', '\r', '\u00a0', '\ufeff', '\u2028', 'x', '}', ']', ',') }),
          )
          .map(([j, tail]) => j + tail),
        fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', 'a', ' ', '\\') }),
      );
      fc.assert(
        fc.property(line, fc.constantFrom('json-lines' as const, 'text' as const), (l, protocol) => {
          const record = parseRecord(l, protocol);
          const first = l.trim()[0];
          if (protocol === 'text' || (first !== '{' && first !== '[')) {
            expect(record).toEqual({ kind: 'text', line: l });
            return;
          }
          let expected: unknown;
          try {
            expected = JSON.parse(l.trim());
          } catch {
            expect(record).toMatchObject({ kind: 'malformed', line: l });
            return;
          }
          expect(record).toEqual({ kind: 'json', value: expected });
        }),
        { numRuns: 10_000 },
      );
    });

    it('round-trips any JSON object or array', () => {
      const value = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));
      fc.assert(
        fc.property(value, (v) => {
          const record = parseRecord(JSON.stringify(v), 'json-lines');
          expect(record).toEqual({ kind: 'json', value: JSON.parse(JSON.stringify(v)) });
        }),
        { numRuns: 10_000 },
      );
    });
  });
});
