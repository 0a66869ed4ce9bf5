import { describe, expect, it } from 'vitest';
import {
  capMarkdown,
  codeFence,
  escapeText,
  formatClock,
  formatDuration,
  formatUsd,
  inlineCode,
  link,
  tableCode,
  truncate,
} from '../../../src/github/report/markdown.ts';

describe('markdown helpers', () => {
  it.each([
    ['plain words', 'plain words'],
    ['a\nb\t c', 'a b c'],
    ['**bold** _it_ [x](y) <b>', '\\*\\*bold\\*\\* \\_it\\_ \\[x\\](y) &lt;b&gt;'],
    ['| pipe', '\\| pipe'],
    ['ping @octocat and @org/team', 'ping @\u200boctocat and @\u200borg/team'],
    ['<!-- agent-mux:run:x -->', '&lt;\\!-- agent-mux:run:x --&gt;'],
    ['a & b', 'a &amp; b'],
  ])('escapeText(%j)', (input, expected) => {
    expect(escapeText(input)).toBe(expected);
  });

  it.each([
    ['ls', '`ls`'],
    ['a `b` c', '``a `b` c``'],
    ['`x`', '`` `x` ``'],
    ['', '` `'],
  ])('inlineCode(%j)', (input, expected) => {
    expect(inlineCode(input)).toBe(expected);
  });

  it('escapes pipes in table code and picks a fence longer than any backtick run', () => {
    expect(tableCode('a|b')).toBe('`a\\|b`');
    expect(codeFence('no ticks')).toBe('```');
    expect(codeFence('x ````` y')).toBe('``````');
  });

  it.each([
    [0, '0 s'],
    [59_999, '59 s'],
    [75_000, '1 min 15 s'],
    [3_725_000, '1 h 2 min'],
  ])('formatDuration(%d)', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('formats clock times, money and links', () => {
    expect(formatClock(75_000)).toBe('01:15');
    expect(formatClock(3_725_000)).toBe('1:02:05');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(1.5)).toBe('$1.50');
    expect(link('PR', 'https://github.com/o/r/pull/1')).toBe('[PR](https://github.com/o/r/pull/1)');
    expect(link('PR', 'javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });

  it('caps a document and says so', () => {
    const capped = capMarkdown(`${'line\n'.repeat(1000)}`, 300);
    expect(capped.length).toBeLessThanOrEqual(300);
    expect(capped).toMatch(/cut to fit/);
    expect(capMarkdown('short', 300)).toBe('short');
  });
});
