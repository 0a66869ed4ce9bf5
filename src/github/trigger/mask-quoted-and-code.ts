/**
 * Blanks out the parts of a Markdown text that are not the author's own prose: fenced code blocks (``` and ~~~,
 * unterminated ones run to the end), inline code spans, quoted lines (`>` at any depth, also inside a list item) and
 * HTML comments (an unterminated one runs to the end). Each blanked character becomes a space and line breaks stay,
 * so an offset into the result is the same offset into the input. Expects `\n` line endings.
 *
 * It errs on the side of blanking: a command must never be read from text its author only quoted or showed as code.
 */
export function maskQuotedAndCode(text: string): string {
  return maskInline(maskLines(text));
}

const fenceOpen = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,}(?=[^`]*$)|~{3,})/;
const fenceClose = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;
const quoteLine = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*>/;

function maskLines(text: string): string {
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of text.split('\n')) {
    if (fence) {
      out.push(blank(line));
      const close = fenceClose.exec(line)?.[1];
      if (close?.[0] === fence.char && close.length >= fence.length) fence = undefined;
      continue;
    }
    const open = fenceOpen.exec(line)?.[1];
    if (open) {
      fence = { char: open[0]!, length: open.length };
      out.push(blank(line));
    } else if (quoteLine.test(line)) {
      out.push(blank(line));
    } else {
      out.push(line);
    }
  }
  return out.join('\n');
}

function maskInline(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && text[i + 1] === '`') {
      out += '\\`';
      i += 2;
    } else if (ch === '<' && text.startsWith('<!--', i)) {
      // `<!-->` and `<!--->` are complete (empty) comments, as in HTML and CommonMark.
      const end = text.indexOf('-->', i + 2);
      const stop = end === -1 ? text.length : end + 3;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (ch === '`') {
      const length = runLength(text, i);
      const close = closingBackticks(text, i + length, length);
      const stop = close === -1 ? i + length : close + length;
      out += close === -1 ? text.slice(i, stop) : blank(text.slice(i, stop));
      i = stop;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

function runLength(text: string, start: number): number {
  let end = start;
  while (text[end] === '`') end += 1;
  return end - start;
}

/** The start of the next run of exactly `length` backticks before a blank line, or -1. */
function closingBackticks(text: string, from: number, length: number): number {
  let i = from;
  while (i < text.length) {
    if (text[i] === '`') {
      const run = runLength(text, i);
      if (run === length) return i;
      i += run;
    } else if (text[i] === '\n') {
      const next = text.indexOf('\n', i + 1);
      if (/^[ \t]*$/.test(text.slice(i + 1, next === -1 ? text.length : next))) return -1;
      i += 1;
    } else {
      i += 1;
    }
  }
  return -1;
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}
