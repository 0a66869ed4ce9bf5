/**
 * Characters that are invisible, or that change how the text around them is shown: controls (C0,
 * DEL, C1), format characters (the bidirectional overrides and isolates U+202A–U+202E and
 * U+2066–U+2069, zero-width spaces and joiners, U+FEFF), line and paragraph separators, spaces other
 * than U+0020 (a no-break space looks like a space), private-use and unassigned code points, lone
 * surrogates, and every default-ignorable code point (fillers such as U+3164, variation selectors,
 * tag characters).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

/**
 * `json` (the output of `JSON.stringify`) with every invisible or bidirectional character inside its
 * strings written as a JSON escape (`\u202E`; a character beyond U+FFFF as its two surrogates), so
 * an approver sees each one and the text is still the same JSON value. The structure's own newlines
 * and spaces are kept; `JSON.stringify` already escapes the controls below U+0020 inside strings.
 */
export function showInvisibleInJson(json: string): string {
  return json.replace(INVISIBLE, (char) => (char === '\n' || char === ' ' ? char : escapeUnits(char)));
}

/**
 * `text` (plain text, not JSON) with every invisible or bidirectional character written as
 * `<U+202E>`, so that nothing in it hides or reorders what is shown next to it. Newlines too: the
 * text is meant for one line.
 */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => (char === ' ' ? char : `<U+${codePointHex(char)}>`));
}

function escapeUnits(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  return out;
}

function codePointHex(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
}
