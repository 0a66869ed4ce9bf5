import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskQuotedAndCode } from '../../../src/github/trigger/mask-quoted-and-code.ts';

const markdown = fc
  .array(
    fc.oneof(fc.constantFrom('```', '~~~', '`', '``', '> ', '<!--', '-->', '\n', '- ', '@agent', 'x'), fc.string()),
    {
      maxLength: 40,
    },
  )
  .map((parts) => parts.join(''));

describe('maskQuotedAndCode', () => {
  it.each([
    ['prose', 'a @b c', 'a @b c'],
    ['inline code', 'a `b` c', 'a     c'],
    ['fence', 'a\n```js\nb\n```\nc', 'a\n     \n \n   \nc'],
    ['quote', '> q\nr', '   \nr'],
    ['comment', 'a<!--b-->c', 'a        c'],
    ['escaped backtick', 'a \\`b` c', 'a \\`b` c'],
  ])('%s', (_name, input, expected) => {
    expect(maskQuotedAndCode(input)).toBe(expected);
  });

  it('keeps offsets: same length, same line breaks, each character kept or blanked', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const masked = maskQuotedAndCode(text);
        expect(masked).toHaveLength(text.length);
        for (let i = 0; i < text.length; i += 1) {
          if (text[i] === '\n') expect(masked[i]).toBe('\n');
          else expect([text[i], ' ']).toContain(masked[i]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
