import { htmlVoidElements } from './html-void-elements.ts';

/**
 * Code points that render as nothing (or reorder what is shown) and so can hide text from a human reviewer while an
 * agent still reads it: every format character (`Cf`: zero-width U+200B–U+200D, U+2060–U+2064, U+FEFF, soft hyphen
 * U+00AD, bidi controls U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069, tags …), the whole tag block
 * U+E0000–U+E007F, the variation selectors supplement, invisible fillers, C0/C1 controls other than tab and line
 * feed, lone surrogates and noncharacters (U+FDD0–U+FDEF, U+FFFE, U+FFFF, U+10FFFF …). Exported for tests.
 */
export const invisibleCharacters =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: U+034F is listed on its own, to be removed alone
  /[\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}\u0000-\u0008\u000B-\u001F\u007F-\u009F\u034F\u115F\u1160\u17B4\u17B5\u180E\u3164\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

const namedInvisibleEntities =
  // `&shy` is also read without its `;` (a legacy name browsers decode in text, whatever follows).
  /&shy(?!;)|&(?:shy|zwj|zwnj|lrm|rlm|NoBreak|ZeroWidthSpace|NegativeVeryThinSpace|NegativeThinSpace|NegativeMediumSpace|NegativeThickSpace|InvisibleTimes|InvisibleComma|ApplyFunction|it|ic|af);/g;
/**
 * A numeric character reference, with as many digits as a browser reads (inside raw HTML it decodes them all), its
 * `;` optional: a browser decodes `&#8203` without one too.
 */
const numericEntity = /&#(?:[xX]([0-9A-Fa-f]+)|([0-9]+));?/g;
const htmlComment = /<!--(?:-?>|[\s\S]*?-->|[\s\S]*$)/g;
const tag = /<([A-Za-z][A-Za-z0-9-]*)((?:\s+[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/g;
const attribute = /[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
const hiddenStyle =
  /display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse)|(?:opacity|font-size|max-height|height|width)\s*:\s*0(?![.\d]*[1-9])/i;
/**
 * The attributes kept on HTML tags: what GitHub renders or acts on. Every other attribute's value is never shown
 * (`alt`, `title`, `name`, `id`, `value`, `content`, `aria-*`, `data-*`, …): it goes.
 */
const keptAttribute =
  /^(?:href|src|open|align|valign|width|height|colspan|rowspan|start|reversed|type|checked|disabled|border|cellpadding|cellspacing|dir|hidden|aria-hidden|style)$/i;
/** Elements whose content a browser never shows as text. */
const unshownElements = /^(?:script|style|template|noscript|title|head|iframe|object|svg|math)$/i;
/** A link reference definition: never rendered (its label shows only where a link uses it). */

const bracketText = String.raw`(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*`;
const linkTitle = String.raw`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))`;
const imageAlt = new RegExp(String.raw`!\[${bracketText}\](?=[(\[])`, 'g');
const inlineLinkTitle = new RegExp(
  String.raw`(\]\(\s*)(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)\s+${linkTitle}\s*\)`,
  'g',
);
const referenceDefinition = new RegExp(
  String.raw`^ {0,3}\[${bracketText}\]:[ \t]*\n?[ \t]*(?:<[^<>\n]*>|\S+)(?:[ \t]*\n?[ \t]*${linkTitle})?[ \t]*(?:\n|$)`,
  'gm',
);

/**
 * Removes from untrusted GitHub text what a human reading the rendered page would not see but an agent reading the
 * source would: invisible and bidirectional control characters (also written as HTML entities; a numeric entity for
 * no character — `&#0;`, a surrogate, beyond U+10FFFF — becomes U+FFFD, as a renderer shows it), HTML comments (an
 * unterminated one runs to the end), elements hidden with `hidden`, `aria-hidden="true"` or a hiding `style`, the
 * attributes of HTML tags that are never shown (all but `href`, `src` and those that lay out or hide), elements whose
 * content a browser never shows as text (`script`, `style`, `template`, `svg`, …), Markdown image alt text, the titles
 * of Markdown links and images, and link reference definitions whole (`[//]: # (hidden)`, `[do this]: #`). Line endings become `\n` and the result
 * is NFC. `<details>` is kept: its text is one click away. Code blocks are not exempt: the same rules apply inside them.
 * Idempotent.
 */
export function sanitizeText(text: string): string {
  // A removal can join pieces into something removable (`<!<!-- -->-- x -->`), so repeat until nothing changes.
  // This ends: after the first pass the text is NFC without CR, and from then on a pass that changes it shortens it.
  let current = sanitizeOnce(text);
  for (;;) {
    const next = sanitizeOnce(current);
    if (next === current) return next;
    current = next;
  }
}

/**
 * Untrusted text that GitHub shows as it is, not rendered (a diff hunk in a review): everything in it is visible but
 * the invisible and bidirectional control characters, so only those go (and `\r\n` becomes `\n`, NFC); HTML, comments
 * and Markdown in it are code a reviewer sees, and stay.
 */
export function sanitizeCode(text: string): string {
  return text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(invisibleCharacters, '')
    .normalize('NFC');
}

function sanitizeOnce(text: string): string {
  let out = text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(invisibleCharacters, '');
  out = out.replace(/([\uFE00-\uFE0F])[\uFE00-\uFE0F]+/g, '$1');
  out = out.replace(namedInvisibleEntities, '').replace(numericEntity, (entity, hex?: string, decimal?: string) => {
    const codePoint = hex === undefined ? Number(decimal) : Number.parseInt(hex, 16);
    // Renderers show U+FFFD for these, as CommonMark says; kept as an entity, a reader of the source might decode it.
    if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return '\uFFFD';
    invisibleCharacters.lastIndex = 0;
    return invisibleCharacters.test(String.fromCodePoint(codePoint)) ? '' : entity;
  });
  out = out.replace(htmlComment, '');
  out = removeHiddenElements(out);
  out = out.replace(tag, stripAttributes);
  out = out.replace(imageAlt, '![]');
  out = out.replace(inlineLinkTitle, '$1$2)');
  out = out.replace(referenceDefinition, '');
  return out.normalize('NFC');
}

function isHidden(attributes: string): boolean {
  for (const [raw] of attributes.matchAll(attribute)) {
    const [name = '', value = ''] = splitAttribute(raw);
    const key = name.toLowerCase();
    if (key === 'hidden') return true;
    if (key === 'aria-hidden' && value.trim().toLowerCase() === 'true') return true;
    if (key === 'style' && hiddenStyle.test(value)) return true;
  }
  return false;
}

function splitAttribute(raw: string): [string, string] {
  const eq = raw.indexOf('=');
  if (eq === -1) return [raw, ''];
  const value = raw.slice(eq + 1).trim();
  const unquoted = /^(["']).*\1$/s.test(value) ? value.slice(1, -1) : value;
  return [raw.slice(0, eq).trim(), unquoted];
}

/** Removes each hidden element with its content, counting nested elements of the same name. */
function removeHiddenElements(text: string): string {
  let out = text;
  let from = 0;
  for (;;) {
    tag.lastIndex = from;
    const match = tag.exec(out);
    if (!match) return out;
    const [whole, name = '', attributes = '', selfClosing] = match;
    const start = match.index;
    const afterTag = start + whole.length;
    if (!isHidden(attributes) && !unshownElements.test(name)) {
      from = afterTag;
      continue;
    }
    const end = selfClosing || htmlVoidElements.has(name.toLowerCase()) ? afterTag : closingEnd(out, name, afterTag);
    out = out.slice(0, start) + out.slice(end);
    from = start;
  }
}

/** The end of the tag that closes an element named `name` opened before `from`, or the end of the text. */
function closingEnd(text: string, name: string, from: number): number {
  const pattern = new RegExp(`<(/?)${name}(?=[\\s/>])[^>]*>`, 'gi');
  pattern.lastIndex = from;
  let depth = 1;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[1]) depth -= 1;
    else if (!match[0].endsWith('/>')) depth += 1;
    if (depth === 0) return match.index + match[0].length;
  }
  return text.length;
}

function stripAttributes(whole: string, name: string, attributes: string, selfClosing: string): string {
  const all = [...attributes.matchAll(attribute)].map(([raw]) => raw);
  const kept = all.filter((raw) => keptAttribute.test(splitAttribute(raw)[0]));
  if (kept.length === all.length) return whole;
  return `<${name}${kept.map((raw) => ` ${raw}`).join('')}${selfClosing ? ' /' : ''}>`;
}
