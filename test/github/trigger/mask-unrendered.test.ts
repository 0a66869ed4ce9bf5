import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskUnrendered } from '../../../src/github/trigger/mask-unrendered.ts';

const markdown = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '```',
        '~~~',
        '`',
        '    ',
        '\t',
        '> ',
        '<!--',
        '-->',
        '<span hidden>',
        '</span>',
        '![',
        '](u "t")',
      ),
      fc.constantFrom('\n', '\n\n', '- ', '1. ', '[^1]', '[r]: u', '@agent', 'x', '*', '|', '---', '==='),
      fc.string({ maxLength: 5 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('maskUnrendered', () => {
  it.each([
    ['prose', 'a @b c', 'a @b c'],
    ['inline code', 'a `b` c', 'a     c'],
    ['fence', 'a\n```js\nb\n```\nc', 'a\n     \n \n   \nc'],
    ['indented code', 'a\n\n    b\nc', 'a\n\n     \nc'],
    ['quote with a lazy line', '> q\nr\n\ns', '   \n \n\ns'],
    ['comment', 'a<!--b-->c', 'a        c'],
    ['hidden span', 'a<span hidden>b</span>c', `a${' '.repeat(21)}c`],
    ['image and link', '![a](u) [b](v "t")', `${' '.repeat(9)}b${' '.repeat(8)}`],
    ['escaped characters stay', 'a \\`b` c', 'a \\`b` c'],
    ['emphasis markers stay literal', '*a* _b_', '*a* _b_'],
  ])('%s', (_name, input, expected) => {
    expect(maskUnrendered(input)).toBe(expected);
  });

  it('keeps offsets: same length, same line breaks, each character kept or blanked', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const masked = maskUnrendered(text);
        expect(masked).toHaveLength(text.length);
        for (let i = 0; i < text.length; i += 1) {
          if (text[i] === '\n') expect(masked[i]).toBe('\n');
          else expect([text[i], ' ']).toContain(masked[i]);
        }
      }),
      { numRuns: 500 },
    );
  });
});
