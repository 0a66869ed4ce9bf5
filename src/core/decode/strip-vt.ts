import stripAnsi from 'strip-ansi';

/** C0 controls except `\t`, `\n`, `\r`; DEL; C1 controls. */
const CONTROL_CLASS = String.raw`[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]`;

/**
 * Control strings that never end (OSC, DCS, SOS, PM, APC with no terminator before the next control
 * character or the end). `strip-ansi` leaves them; they must go before it runs, because it removes the ESC
 * that ends their payload. `(?=(…))\1` makes the payload match atomic, so it is never cut short to dodge the
 * terminator check. Linux console palette sequences (`ESC ] P rrggbb`, `ESC ] R`) are left to `strip-ansi`.
 */
const UNTERMINATED = new RegExp(
  [
    String.raw`(?!\u001B\](?:P[\dA-Fa-f]{7}|R))(?:\u001B\]|\u009D)(?=([^\u0007\u0018\u001A\u001B\u0080-\u009F]*))\1(?!\u0007|\u001B\\|\u009C)`,
    String.raw`(?:\u001B[PX^_]|[\u0090\u0098\u009E\u009F])(?=([^\u0018\u001A\u001B\u0080-\u009F]*))\2(?!\u001B\\|\u009C)`,
  ].join('|'),
  'g',
);

/**
 * What is left after `strip-ansi`, removed the way a VT500-style terminal would consume it:
 * 1. an unfinished CSI (introducer, parameters and intermediates with no final byte);
 * 2. any other escape: ESC, intermediates (0x20–0x2F), and one final byte (0x30–0x7E) when present
 *    (`strip-ansi` only knows a narrow set of final bytes, and not a stray ST `ESC \`);
 * 3. every other C0 control except `\t`, `\n`, `\r` (BEL, backspace, …), DEL and the C1 controls.
 */
const LEFTOVER = new RegExp(
  [
    String.raw`(?:\u001B\[|\u009B)[\u0030-\u003F]*[\u0020-\u002F]*`,
    String.raw`\u001B[\u0020-\u002F]*[\u0030-\u007E]?`,
    CONTROL_CLASS,
  ].join('|'),
  'g',
);

/** Any character `stripVt` may have to remove. */
const CONTROL = new RegExp(CONTROL_CLASS);

/**
 * Removes VT/ANSI escape sequences from terminal (PTY) output: CSI (colours, cursor movement, erase),
 * OSC (window title, OSC 8 hyperlinks), DCS and other control strings, single-character escapes
 * (`ESC 7`, `ESC (B`, `ESC =`), unfinished sequences, and stray control characters (BEL, backspace, …).
 * Keeps `\t`, `\n` and `\r`; a backspace is removed, not applied.
 */
export function stripVt(text: string): string {
  if (!CONTROL.test(text)) return text;
  return stripAnsi(text.replace(UNTERMINATED, '')).replace(LEFTOVER, '');
}
