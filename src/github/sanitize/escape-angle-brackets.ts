/**
 * Characters that look like `<` or `>` without folding to them: single guillemets, modifier-letter and ornamental
 * arrowheads, mathematical, CJK and technical angle brackets, Canadian syllabics, Runic, Greek musical notation and
 * Miao letters listed as their confusables by Unicode (confusables.txt), double angle brackets and guillemets,
 * triangles and relations shaped like them. Exported for tests.
 */
export const angleBracketLookAlikes: ReadonlySet<string> = new Set([
  '\u00AB', // « left-pointing double angle quotation mark
  '\u00BB', // »
  '\u02C2', // ˂ modifier letter left arrowhead
  '\u02C3', // ˃
  '\u02F1', // ˱ modifier letter low left arrowhead
  '\u02F2', // ˲
  '\u1433', // ᐳ Canadian syllabics po
  '\u1438', // ᐸ Canadian syllabics pa
  '\u16B2', // ᚲ runic letter kauna
  '\u2039', // ‹ single left-pointing angle quotation mark
  '\u203A', // ›
  '\u2329', // 〈 left-pointing angle bracket
  '\u232A', // 〉
  '\u22B2', // ⊲ normal subgroup of
  '\u22B3', // ⊳
  '\u22D6', // ⋖ less-than with dot
  '\u22D7', // ⋗
  '\u25C1', // ◁ white left-pointing triangle
  '\u25B7', // ▷
  '\u276C', // ❬ medium left-pointing angle bracket ornament
  '\u276D', // ❭
  '\u276E', // ❮ heavy left-pointing angle quotation mark ornament
  '\u276F', // ❯
  '\u2770', // ❰ heavy left-pointing angle bracket ornament
  '\u2771', // ❱
  '\u27E8', // ⟨ mathematical left angle bracket
  '\u27E9', // ⟩
  '\u27EA', // ⟪ mathematical left double angle bracket
  '\u27EB', // ⟫
  '\u2989', // ⦉ Z notation left binding bracket
  '\u298A', // ⦊
  '\u2991', // ⦑ left angle bracket with dot
  '\u2992', // ⦒
  '\u29FC', // ⧼ left-pointing curved angle bracket
  '\u29FD', // ⧽
  '\u3008', // 〈 CJK left angle bracket
  '\u3009', // 〉
  '\u300A', // 《 CJK left double angle bracket
  '\u300B', // 》
  '\u{1D236}', // Greek instrumental notation symbol-40
  '\u{1D237}', // Greek instrumental notation symbol-42
  '\u{16F3F}', // Miao letter archaic zza
]);

const candidate = /[<>\u0080-\u{10FFFF}]/gu;
const seen = new Map<string, string>();

/**
 * Escapes every `<` and `>` in a text, and every character that looks like one: those whose compatibility
 * decomposition (NFKD, which NFKC composes from) holds `<` or `>` (full-width `＜`, small `﹤`, `≮`) and the
 * {@link angleBracketLookAlikes}. `<` becomes `&lt;`, `>` `&gt;`, any other a hexadecimal character reference, so
 * that the text keeps saying what it said and no longer holds anything a reader could take for a tag: whatever the
 * rest of a would-be delimiter is made of (full-width or mathematical letters, Cyrillic look-alikes, fraction or
 * division slashes, non-breaking hyphens), it cannot open or close one. Idempotent only up to `&`: run it once.
 */
export function escapeAngleBrackets(text: string): string {
  return text.replace(candidate, (character) => {
    let escaped = seen.get(character);
    if (escaped === undefined) {
      escaped = escapeCharacter(character);
      if (seen.size < 4096) seen.set(character, escaped);
    }
    return escaped;
  });
}

function escapeCharacter(character: string): string {
  if (character === '<') return '&lt;';
  if (character === '>') return '&gt;';
  const folded = character.normalize('NFKD');
  if (angleBracketLookAlikes.has(character) || folded.includes('<') || folded.includes('>')) {
    return `&#x${character.codePointAt(0)!.toString(16).toUpperCase()};`;
  }
  return character;
}
