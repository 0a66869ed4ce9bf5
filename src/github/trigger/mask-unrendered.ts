import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { htmlVoidElements } from '../sanitize/html-void-elements.ts';

type Root = ReturnType<typeof fromMarkdown>;
type MarkdownNode = Root | Root['children'][number];

/**
 * Nodes whose children are shown as the author's own prose. Everything else is skipped with its content: code (fenced,
 * indented, inline), block quotes (lazy continuation lines included: the parser puts them in the quote), raw HTML,
 * images (their alt text), definitions (their URL and title), footnotes (GitHub drops a definition no reference
 * points to), and any node type not listed here.
 * A link's text counts, its URL and title do not (they are not text nodes).
 */
const shownContainers = new Set<MarkdownNode['type']>([
  'root',
  'paragraph',
  'heading',
  'emphasis',
  'strong',
  'delete',
  'link',
  'linkReference',
  'list',
  'listItem',
  'table',
  'tableRow',
  'tableCell',
]);

/**
 * Emphasis and strikethrough never hide text, and resolving their delimiters takes quadratic time (`*a` repeated
 * 30,000 times: minutes), so they are not parsed: their markers stay as literal text.
 */
const noEmphasis = { disable: { null: ['attention', 'strikethrough'] } };

const htmlNonElement = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<\?[\s\S]*?(?:\?>|$)|<![A-Za-z][^>]*>?/g;
const htmlTag = /<(\/?)([A-Za-z][A-Za-z0-9-]*)(?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;

/**
 * Blanks out every character of a Markdown text that GitHub does not render as the author's visible prose, so that
 * mentions and commands are read only from what a reader sees. The text is parsed as GitHub-flavoured Markdown
 * (CommonMark with GFM); only text nodes outside code, block quotes, images and raw HTML elements are kept (see
 * `shownContainers`). Text inside any raw HTML element (`<span hidden>`, `<details>`, `<div>` with Markdown inside)
 * is blanked too: whether it shows is up to styles and the sanitizer, so it never counts. An element opened inside a
 * block ends with that block, as the HTML parser closes it there. A literal `<!--` left in the text (an unterminated
 * comment, which CommonMark shows as text) blanks everything after it up to `-->`, erring on the side of blanking.
 *
 * Each blanked character becomes a space and line breaks stay, so an offset into the result is the same offset into
 * the input. A text the parser cannot handle, or one shaped to make it slow (see {@link isCostly}), is blanked entirely.
 */
export function maskUnrendered(text: string): string {
  const out = text.replace(/[^\n]/g, ' ').split('');
  const parsed = parsedPrefix(text);
  if (isCostly(parsed)) return out.join('');
  let tree: Root;
  try {
    tree = fromMarkdown(parsed, { extensions: [gfm(), noEmphasis], mdastExtensions: [gfmFromMarkdown()] });
  } catch {
    return out.join('');
  }
  const open: string[] = [];
  const pending: { node: MarkdownNode; depth: number }[] = [{ node: tree, depth: -1 }];
  // Depth-first, in document order, without recursion (deeply nested input must not overflow the stack).
  const exits: { depth: number; openCount: number }[] = [];
  while (pending.length > 0) {
    const { node, depth } = pending.pop()!;
    while (exits.length > 0 && exits.at(-1)!.depth >= depth) open.length = exits.pop()!.openCount;
    if (node.type === 'text') {
      if (open.length === 0) keep(out, text, node);
    } else if (node.type === 'html') {
      trackElements(open, node.value);
    } else if (shownContainers.has(node.type) && 'children' in node) {
      exits.push({ depth, openCount: open.length });
      const children: readonly MarkdownNode[] = node.children;
      for (let i = children.length - 1; i >= 0; i -= 1) pending.push({ node: children[i]!, depth: depth + 1 });
    }
  }
  return blankLiteralComments(out.join(''));
}

function keep(out: string[], text: string, node: MarkdownNode): void {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return;
  for (let i = start; i < end; i += 1) out[i] = text[i]!;
}

/** Applies the start and end tags in a piece of raw HTML to the stack of open elements, as a browser would. */
function trackElements(open: string[], html: string): void {
  for (const [, closing, rawName = ''] of html.replace(htmlNonElement, '').matchAll(htmlTag)) {
    const name = rawName.toLowerCase();
    if (!closing) {
      if (!htmlVoidElements.has(name)) open.push(name);
      continue;
    }
    const at = open.lastIndexOf(name);
    if (at !== -1) open.length = at;
  }
}

function blankLiteralComments(masked: string): string {
  return masked.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/**
 * How much of a text is parsed, at most. The parser's time grows with the square of the length for some shapes of
 * text (65,536 characters of `> a\nb\n`: 13 s), so only a prefix is read: up to the last blank line within this
 * many characters. A block never spans a blank line except code and raw HTML, which a cut leaves unterminated and so
 * still blanked; the cut never makes hidden text look rendered. The rest of the text is blanked.
 */
export const maxParsedLength = 10_000;

function parsedPrefix(text: string): string {
  if (text.length <= maxParsedLength) return text;
  const head = text.slice(0, maxParsedLength);
  const blankLines = [...head.matchAll(/\n[ \t]*\n/g)];
  const last = blankLines.at(-1);
  return last === undefined ? '' : head.slice(0, last.index + 1);
}

const maxNesting = 16;
const maxUnderlines = 64;
const containerPrefix = /^(?:[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)))+/gm;
const underline = /^[ \t>]*(?:=+|-+)[ \t]*$/gm;

/**
 * Whether parsing the text could take long: the parser's time grows with the square of the nesting depth of quotes
 * and lists and of the number of setext heading underlines (65,536 characters of `>`: 40 s, of `a\n=\n`: over 2 min;
 * 10,000 of `a\n=\n`: 1.4 s). No one writes 16 nested containers or 64 underlines in a comment: such a text is not
 * read at all.
 */
function isCostly(text: string): boolean {
  for (const [prefix] of text.matchAll(containerPrefix)) {
    if (prefix.replace(/\d{1,9}(?=[.)])/g, '').replace(/[ \t]/g, '').length > maxNesting) return true;
  }
  let underlines = 0;
  for (const _ of text.matchAll(underline)) {
    underlines += 1;
    if (underlines > maxUnderlines) return true;
  }
  return false;
}
