import { Buffer } from 'node:buffer';
import { htmlNamedEntities } from './html-entities.ts';

/**
 * Secrets shorter than this get no base64 or hex variant: from 8 bytes on, the part of a base64
 * encoding fixed by the secret alone is at least 10 characters (60 bits) at every alignment and
 * the hex form 16 digits (64 bits), so random base64 or hex (hashes, images: 1 GB of it) matches
 * one by chance with a probability below 3·10⁻⁹.
 */
export const MIN_ENCODED_SECRET_LENGTH = 8;

/** Invisible characters an encoder may interleave: soft hyphen, zero-width space/non-joiner/joiner, word joiner, BOM. */
export const INVISIBLE = '\\u00AD\\u200B-\\u200D\\u2060\\uFEFF';
const SEP = `[${INVISIBLE}]*`;
/** Between base64 characters: invisible characters, and one line break at most (a wrapped block). */
const WRAPPED = `[${INVISIBLE}]*(?:\r?\n[${INVISIBLE}]*)?`;

/**
 * What every character-level encoding of a secret contains when it is not the literal (or its
 * reverse): a `%XX` escape, a `\u`/`\x` or JSON escape, an HTML reference or an invisible character.
 */
export const ENCODING_TRIGGER = String.raw`%[0-9A-Fa-f]{2}|\\[ux"\\/]|&#|&[A-Za-z]+;|[${INVISIBLE}]`;

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Hex digits of `n` (at least `width`), each letter matching either case. */
function hexAnyCase(n: number, width: number): string {
  return n
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);
}

/** Every way one character may be written: itself, percent-encoded, escaped, as an HTML reference. */
function characterForms(char: string): string {
  const cp = char.codePointAt(0) as number;
  const forms = [escapeRegExp(char)];
  forms.push([...Buffer.from(char, 'utf8')].map((byte) => `%${hexAnyCase(byte, 2)}`).join(''));
  const units = char.length === 2 ? [char.charCodeAt(0), char.charCodeAt(1)] : [cp];
  forms.push(units.map((unit) => String.raw`\\u${hexAnyCase(unit, 4)}`).join(''));
  if (cp < 0x100) forms.push(String.raw`\\x${hexAnyCase(cp, 2)}`);
  if (char === '"' || char === '\\' || char === '/') forms.push(`\\\\${escapeRegExp(char)}`);
  forms.push(`&#0*${cp};?`, `&#[xX]0*${hexAnyCase(cp, 1)};?`);
  for (const name of htmlNamedEntities[char] ?? []) forms.push(`&${name};`);
  return `(?:${forms.join('|')})`;
}

/** The characters of `text` (code points), each in any of its forms, invisible characters allowed between them. */
function characterLevel(chars: readonly string[]): string {
  return chars.map(characterForms).join(SEP);
}

/** `text` with invisible characters allowed between its characters; `+`/`-` and `/`/`_` interchangeable (base64url). */
function base64Pattern(text: string, separator = SEP): string {
  return [...text].map((c) => (c === '+' ? '[+\\-]' : c === '/' ? '[/_]' : c)).join(separator);
}

/**
 * The base64 characters fixed by the secret alone when it starts `offset` bytes (0, 1 or 2) into
 * the encoded data: what any base64 text containing the secret at that alignment contains.
 */
export function base64Core(secret: string, offset: 0 | 1 | 2): string {
  const bytes = Buffer.from(secret, 'utf8');
  const padded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(2)]);
  const encoded = padded.toString('base64');
  const first = Math.ceil((8 * offset) / 6);
  const last = Math.floor((8 * (offset + bytes.length) - 6) / 6);
  return encoded.slice(first, last + 1);
}

/** A secret's patterns: `pattern` matches all its forms; `triggers` are cheap ones, one of which any match contains. */
export interface SecretVariants {
  pattern: string;
  triggers: string[];
  /** The longest match of `pattern` without invisible characters (what a stream must hold back, plus one). */
  maxLength: number;
}

/**
 * The forms of one secret that the redactor hides: the literal and its reverse, each character
 * possibly percent-encoded, `\u`/`\x`-escaped or an HTML reference, with invisible characters
 * between characters; from {@link MIN_ENCODED_SECRET_LENGTH} on also base64 and base64url at the
 * three alignments (so `x-access-token:SECRET` or `:SECRET` encoded is caught too), also wrapped
 * onto a new line, and hex in either case, also with `:`, space or `-` between the bytes. What it
 * does not know is listed in docs/security.md ("What the redactor knows").
 */
export function secretVariants(secret: string): SecretVariants {
  const chars = [...secret];
  const reversed = [...chars].reverse();
  const patterns = [characterLevel(chars)];
  const triggers = [escapeRegExp(secret)];
  const reverse = reversed.join('');
  if (reverse !== secret) {
    patterns.push(characterLevel(reversed));
    triggers.push(escapeRegExp(reverse));
  }
  // `&#x0*HHHHH;` of the widest character, no extra zeros.
  let maxLength = chars.reduce((sum, c) => sum + Math.max(12, Buffer.byteLength(c) * 3), 0);
  if (secret.length >= MIN_ENCODED_SECRET_LENGTH) {
    for (const offset of [0, 1, 2] as const) {
      const core = base64Core(secret, offset);
      patterns.push(base64Pattern(core, WRAPPED));
      // Wrapped at most once within the core (MIME and PEM lines are 64–76 wide): one half is whole.
      const half = Math.ceil(core.length / 2);
      triggers.push(base64Pattern(core.slice(0, half), ''), base64Pattern(core.slice(core.length - half), ''));
    }
    const bytes = [...Buffer.from(secret, 'utf8')];
    // `\x41\x42`, `4142`, `41:42` (fingerprints, `xxd`-like dumps), `41 42`, `41-42`.
    patterns.push(bytes.map((byte) => `(?:\\\\x)?${hexAnyCase(byte, 2)}`).join(`[: -]?${SEP}`));
    triggers.push(bytes.map((byte) => hexAnyCase(byte, 2)).join(''));
    triggers.push(
      bytes
        .slice(0, 4)
        .map((byte) => hexAnyCase(byte, 2))
        .join('[: -]'),
    );
    maxLength = Math.max(maxLength, bytes.length * 4);
  }
  return { pattern: patterns.join('|'), triggers, maxLength };
}
