import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripVt } from '../../../src/core/decode/strip-vt.ts';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;
/** Everything stripVt may remove; none of it may survive. */
const CONTROL_CLASS = String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]`;
const CONTROL = new RegExp(CONTROL_CLASS);

describe('stripVt', () => {
  it('leaves plain text alone, with tabs, newlines and carriage returns', () => {
    const text = 'plain\ttext\r\nnext line — ünïcödé 😀';
    expect(stripVt(text)).toBe(text);
  });

  it('removes SGR colours (16, 256 and true colour, with ; and : separators)', () => {
    const ls = `${ESC}[0m${ESC}[01;34msrc${ESC}[0m  ${ESC}[01;32mrun.sh${ESC}[0m  README.md`;
    expect(stripVt(ls)).toBe('src  run.sh  README.md');
    expect(stripVt(`${ESC}[38;5;208morange${ESC}[39m ${ESC}[38;2;255;0;0mred${ESC}[m`)).toBe('orange red');
    expect(stripVt(`${ESC}[4:3mcurly${ESC}[58:2::255:0:0m!${ESC}[0m`)).toBe('curly!');
  });

  it('removes cursor movement, erase and mode switches from a progress display', () => {
    const frame = `${ESC}[?25l${ESC}[2K${ESC}[1G⠋ Thinking…${ESC}[2K${ESC}[1G⠙ Thinking…${ESC}[1A${ESC}[10;20H${ESC}[J${ESC}[?25h`;
    expect(stripVt(frame)).toBe('⠋ Thinking…⠙ Thinking…');
    expect(stripVt(`${ESC}[?1049h${ESC}[?2004h${ESC}[H${ESC}[2Jready${ESC}[?2004l${ESC}[?1049l`)).toBe('ready');
  });

  it('removes OSC 8 hyperlinks, terminated by ST or BEL, and keeps the link text', () => {
    const st = `see ${ESC}]8;;https://example.com/a?b=c${ST}the docs${ESC}]8;;${ST} now`;
    const bel = `see ${ESC}]8;id=1;https://example.com${BEL}the docs${ESC}]8;;${BEL} now`;
    expect(stripVt(st)).toBe('see the docs now');
    expect(stripVt(bel)).toBe('see the docs now');
  });

  it('removes window and icon titles, and other OSC such as cwd reports and clipboard', () => {
    expect(stripVt(`${ESC}]0;claude — ~/repo${BEL}$ ls`)).toBe('$ ls');
    expect(stripVt(`${ESC}]2;title${ST}text`)).toBe('text');
    expect(stripVt(`${ESC}]7;file://host/home/me${BEL}${ESC}]52;c;aGVsbG8=${BEL}ok`)).toBe('ok');
    expect(stripVt(`${ESC}]133;A${ST}$ ${ESC}]133;B${ST}`)).toBe('$ ');
  });

  it('removes single-character escapes: save/restore cursor, charsets, keypad, index, reset', () => {
    expect(stripVt(`${ESC}7saved${ESC}8`)).toBe('saved');
    expect(stripVt(`${ESC}(0lqqk${ESC}(B box`)).toBe('lqqk box');
    expect(stripVt(`${ESC}=${ESC}>${ESC}M${ESC}D${ESC}E${ESC}c${ESC}#8x`)).toBe('x');
  });

  it('removes DCS and other control strings', () => {
    expect(stripVt(`${ESC}P1$r0m${ST}a${ESC}_apc payload${ST}b${ESC}^pm${ST}c`)).toBe('abc');
  });

  it('removes 8-bit C1 sequences and controls', () => {
    expect(stripVt('\u009b31mred\u009b0m \u009d0;title\u0007x\u0085')).toBe('red x');
  });

  it('removes unfinished sequences at the end of the text', () => {
    expect(stripVt(`text${ESC}[38;5`)).toBe('text');
    expect(stripVt(`text${ESC}]0;half a title`)).toBe('text');
    expect(stripVt(`text${ESC}`)).toBe('text');
    expect(stripVt(`text${ESC}[`)).toBe('text');
  });

  it('ends an unterminated control string at the next escape, as a terminal does', () => {
    expect(stripVt(`${ESC}]0;no end${ESC}[31mred${ESC}[0m`)).toBe('red');
  });

  it('removes ESC followed by any final byte, and a stray ST', () => {
    expect(stripVt(`a${ESC}ab${ESC}\\c${ESC} Fd`)).toBe('abcd');
  });

  it('removes stray BEL, backspace and other C0 controls and DEL, but not \\t \\n \\r', () => {
    expect(stripVt(`ding${BEL}! a\bb\u0000c\u000bd\u000ce\u001ff\u007fg\t\r\n`)).toBe('ding! abcdefg\t\r\n');
  });

  it('keeps the text after a Linux console palette sequence, which has no terminator', () => {
    expect(stripVt(`${ESC}]P0123456hello${ESC}]Rworld`)).toBe('helloworld');
  });

  it('stays linear on long and adversarial input', () => {
    const inputs = [
      `${ESC}]${'x'.repeat(1_000_000)}`,
      `${ESC}]a`.repeat(200_000),
      `${ESC}[${'1;'.repeat(10)}`.repeat(100_000),
      `\u009d${'x'.repeat(20)}`.repeat(100_000),
    ];
    const started = performance.now();
    for (const input of inputs) expect(stripVt(input)).toBe('');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('handles a recorded-looking PTY session', () => {
    const session = [
      `${ESC}]0;codex${BEL}${ESC}[?25l`,
      `${ESC}[1m${ESC}[36m>${ESC}[39m${ESC}[22m fix the test\r\n`,
      `${ESC}[2m• Ran ${ESC}[0m${ESC}[32mnpm test${ESC}[0m\r\n`,
      `${ESC}[K  ${ESC}[31m✗${ESC}[0m 1 failing\r\n`,
      `${ESC}]8;;file:///repo/test/a.test.ts${ST}test/a.test.ts${ESC}]8;;${ST}:12\r\n`,
      `${ESC}[?25h${BEL}`,
    ].join('');
    expect(stripVt(session)).toBe('> fix the test\r\n• Ran npm test\r\n  ✗ 1 failing\r\ntest/a.test.ts:12\r\n');
  });

  describe('properties', () => {
    const anyText = fc.string({
      unit: fc.oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
        fc.constantFrom(ESC, `${ESC}[`, `${ESC}]`, BEL, '\u009b', ';', '1', 'm', '\\', 'P'),
      ),
      maxLength: 40,
    });

    it('leaves no control characters except \\t \\n \\r, and is idempotent', () => {
      fc.assert(
        fc.property(anyText, (text) => {
          const out = stripVt(text);
          expect(out).not.toMatch(CONTROL);
          expect(stripVt(out)).toBe(out);
        }),
        { numRuns: 10_000 },
      );
    });

    it('only removes characters, never adds or reorders them', () => {
      fc.assert(
        fc.property(anyText, (text) => {
          const out = stripVt(text);
          let i = 0;
          for (const ch of text) if (i < out.length && out.startsWith(ch, i)) i += ch.length;
          expect(i).toBe(out.length);
        }),
        { numRuns: 10_000 },
      );
    });

    it('recovers the visible text from text interleaved with complete sequences', () => {
      const visible = fc
        .string({ unit: 'binary', maxLength: 12 })
        .map((s) => s.replace(new RegExp(CONTROL_CLASS, 'g'), ''));
      const sequence = fc.constantFrom(
        `${ESC}[0m`,
        `${ESC}[1;31m`,
        `${ESC}[38;2;1;2;3m`,
        `${ESC}[?25l`,
        `${ESC}[2K`,
        `${ESC}[10;5H`,
        `${ESC}]0;a title${BEL}`,
        `${ESC}]8;;https://x.test/?q=1${ST}`,
        `${ESC}]8;;${BEL}`,
        `${ESC}7`,
        `${ESC}(B`,
        `${ESC}=`,
        `${ESC}P+q${ST}`,
        BEL,
        '\b',
        '\u009b1m',
      );
      fc.assert(
        fc.property(fc.array(fc.tuple(visible, sequence), { maxLength: 8 }), visible, (pairs, tail) => {
          const input = pairs.map(([v, s]) => v + s).join('') + tail;
          const expected = pairs.map(([v]) => v).join('') + tail;
          expect(stripVt(input)).toBe(expected);
        }),
        { numRuns: 10_000 },
      );
    });
  });
});
