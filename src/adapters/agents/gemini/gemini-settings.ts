import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with `//` and block comments (settings.json as the Gemini CLI family reads it) → a value; undefined when unreadable. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2);
      if (i === -1) break;
      i++;
    } else out += c;
  }
  try {
    return JSON.parse(out);
  } catch {
    return undefined;
  }
}

/** Reads a settings file; `{}` when missing, undefined when present but unreadable. */
export function readSettings(file: string): Obj | undefined {
  if (!existsSync(file)) return {};
  try {
    const value = parseJsonc(readFileSync(file, 'utf8'));
    return isObj(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Objects merge key by key (the addition wins), arrays concatenate, anything else is replaced. */
export function mergeSettings(base: Obj, addition: Obj): Obj {
  const out: Obj = { ...base };
  for (const [key, value] of Object.entries(addition)) {
    const current = out[key];
    if (isObj(current) && isObj(value)) out[key] = mergeSettings(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) out[key] = [...current, ...value];
    else out[key] = value;
  }
  return out;
}

/**
 * Builds `<dir>/home/.gemini` as a stand-in for the user's `~/.gemini` (for `GEMINI_CLI_HOME`):
 * every entry of the real one is symlinked (credentials, sessions, history), except
 * `settings.json`, which is the user's settings merged with `addition`. The real folder is never
 * written, except that its `tmp/` (where sessions live) is created when missing so that sessions
 * outlive the overlay. Returns the overlay home, or undefined when the user's settings are unreadable.
 */
export function writeSettingsOverlay(realHome: string, dir: string, addition: Obj): string | undefined {
  const realGemini = join(realHome, '.gemini');
  const user = readSettings(join(realGemini, 'settings.json'));
  if (!user) return undefined;
  const home = join(dir, 'home');
  const gemini = join(home, '.gemini');
  mkdirSync(gemini, { recursive: true, mode: 0o700 });
  try {
    mkdirSync(join(realGemini, 'tmp'), { recursive: true });
  } catch {}
  let entries: string[] = [];
  try {
    entries = readdirSync(realGemini);
  } catch {}
  for (const entry of entries) {
    if (entry === 'settings.json') continue;
    try {
      symlinkSync(join(realGemini, entry), join(gemini, entry));
    } catch {}
  }
  writeFileSync(join(gemini, 'settings.json'), `${JSON.stringify(mergeSettings(user, addition), null, 2)}\n`, {
    mode: 0o600,
  });
  return home;
}

/** The auth type the user's settings select (`security.auth.selectedType`, or the older top-level `selectedAuthType`). */
export function selectedAuthType(settings: Obj | undefined): string | undefined {
  if (!settings) return undefined;
  const security = isObj(settings.security) ? settings.security : undefined;
  const auth = isObj(security?.auth) ? security.auth : undefined;
  const selected = auth?.selectedType ?? settings.selectedAuthType;
  return typeof selected === 'string' ? selected : undefined;
}
