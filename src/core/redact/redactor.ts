import { ENCODING_TRIGGER, type SecretVariants, secretVariants } from './secret-variants.ts';

/** What a redacted secret is replaced with. */
export const REDACTED = '***';

/**
 * Literal secrets shorter than this are ignored: a 3-letter password would otherwise turn every
 * occurrence of a common word or number in the agent's output into `***` (and the pattern of
 * `***`s would tell the secret). Base64 and hex forms need 8 characters
 * (`MIN_ENCODED_SECRET_LENGTH`).
 */
export const MIN_SECRET_LENGTH = 6;

/** Token-shaped strings redacted even when nobody declared them secret. */
const tokenPatterns: readonly string[] = [
  // An Authorization header (`Authorization: Basic …`, `"authorization": "token …"`): keeps name and scheme.
  // The value needs a digit or 16+ characters so prose such as "Authorization: required" survives.
  String.raw`(\b[Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]["']?\s*[:=]\s*["']?(?:[A-Za-z]+\s+)?)(?:(?=[^\s"',;]*\d)[^\s"',;]{8,}|[^\s"',;]{16,})`,
  // `Bearer <token>`: keeps `Bearer `. The token needs a digit or 20+ characters ("Bearer authentication" survives).
  String.raw`(\b[Bb](?:earer|EARER)\s+)(?:(?=[\w.~+/-]*\d)[\w.~+/-]{8,}|[\w.~+/-]{20,})=*`,
  // GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens; fine-grained PATs.
  String.raw`\bgh[pousr]_[A-Za-z0-9]{36,}`,
  String.raw`\bgithub_pat_\w{22,}`,
  // OpenAI and Anthropic keys: sk-…, sk-proj-…, sk-ant-api03-… (must contain a digit).
  String.raw`\bsk-(?=[\w-]*\d)[\w-]{20,}`,
  // AWS access key ids (long-term and temporary).
  String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
  // Slack bot, user, app, refresh … tokens.
  String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
  // Base64 of `x-access-token:<token>` (what `actions/checkout` puts in `.git/config`), wherever it stands.
  String.raw`eC1hY2Nlc3MtdG9rZW46[A-Za-z0-9+/_-]{8,}={0,2}`,
  // JSON Web Tokens: base64url header `{"…`, payload, signature.
  String.raw`\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*`,
  // A PEM private key (a GitHub App's key, an SSH or TLS key), with real or escaped line breaks: the
  // whole block, or from its header to the end of the text when the footer is cut off.
  String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----[\s\S]{0,16000}?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|$)`,
];

/**
 * Text every token pattern's match contains: a string without any of these (and without a
 * literal secret) cannot match, which a near-plain alternation of literals checks much faster than
 * the full expression with its lookaheads. A JWT's trigger takes its first dot: agent-mux's own
 * base64url JSON (the turn record in every tracking comment begins `eyJ`) has none, so writing a
 * tracking comment does not compile the full expression (about 0.1 s of V8's time, the first time).
 */
const tokenTriggers = String.raw`uthorization|UTHORIZATION|earer|EARER|eC1hY2Nlc3MtdG9rZW46|gh[pousr]_|github_pat_|sk-|A[KS]IA|xox[abposr]-|eyJ[\w-]{8,}\.|PRIVATE KEY-----`;

/** Shortest string a token pattern can match (`Bearer ` and 8 characters). */
const MIN_PATTERN_LENGTH = 15;

/** Depth beyond which `redact` stops descending (events are shallow; this only guards cycles). */
const MAX_DEPTH = 64;

export interface RedactorOptions {
  /** Also redact token-shaped strings (GitHub, OpenAI/Anthropic, AWS, Slack, JWT, bearer headers). Default true. */
  patterns?: boolean;
}

/**
 * Replaces secrets with `***` in strings and in plain objects and arrays.
 *
 * Secrets are literal values (those of environment variables marked secret, configured ones;
 * values shorter than {@link MIN_SECRET_LENGTH} are ignored) and token-shaped strings. Everything
 * is one precompiled regular expression; a string with no match is returned as is, and `redact`
 * returns the very same object when nothing in it matched, so the common case allocates nothing.
 */
export class Redactor {
  /** Each literal secret and the patterns of its forms. */
  readonly #secrets = new Map<string, SecretVariants>();
  readonly #patterns: boolean;
  #re: RegExp | undefined;
  /** Cheap pre-check: no match here means no match of `#re`. */
  #trigger: RegExp | undefined;
  /** Shortest string that can match; shorter strings skip the regex. */
  #minLength = Number.POSITIVE_INFINITY;

  constructor(secrets: Iterable<string | undefined> = [], options: RedactorOptions = {}) {
    this.#patterns = options.patterns ?? true;
    for (const secret of secrets) if (secret !== undefined) this.#remember(secret);
    this.#compile();
  }

  /** Adds a literal secret. Returns false when it was too short to be redacted or already known. */
  addSecret(value: string): boolean {
    return this.addSecrets([value]) > 0;
  }

  /**
   * Adds literal secrets, compiling the expression once for all of them (adding them one by one
   * compiles it each time). Returns how many were new and long enough to be redacted.
   */
  addSecrets(values: Iterable<string | undefined>): number {
    let added = 0;
    for (const value of values) if (value !== undefined && this.#remember(value)) added++;
    if (added > 0) this.#compile();
    return added;
  }

  /** The literal secrets redacted (for diagnostics; never print them). */
  get secretCount(): number {
    return this.#secrets.size;
  }

  #remember(value: string): boolean {
    if (value.length < MIN_SECRET_LENGTH || this.#secrets.has(value)) return false;
    this.#secrets.set(value, secretVariants(value));
    return true;
  }

  /**
   * The longest text a literal secret's forms span (invisible characters not counted): a stream
   * that holds back this many characters less one never releases part of a secret.
   */
  get maxSecretMatchLength(): number {
    let max = 0;
    for (const variants of this.#secrets.values()) max = Math.max(max, variants.maxLength);
    return max;
  }

  #compile(): void {
    // Longest first, so a secret that contains another is replaced whole.
    const secrets = [...this.#secrets].sort(([a], [b]) => b.length - a.length).map(([, variants]) => variants);
    const sources = [...secrets.map((v) => v.pattern), ...(this.#patterns ? tokenPatterns : [])];
    this.#re = sources.length === 0 ? undefined : new RegExp(sources.join('|'), 'g');
    const triggers = [
      ...secrets.flatMap((v) => v.triggers),
      ...(secrets.length > 0 ? [ENCODING_TRIGGER] : []),
      ...(this.#patterns ? [tokenTriggers] : []),
    ];
    this.#trigger = triggers.length === 0 ? undefined : new RegExp(triggers.join('|'));
    const shortest = Math.min(...[...this.#secrets.keys()].map((secret) => secret.length));
    this.#minLength = Math.min(shortest, this.#patterns ? MIN_PATTERN_LENGTH : Number.POSITIVE_INFINITY);
  }

  /**
   * Whether `text` passes the cheap pre-check and is searched with the full expression (which V8
   * compiles the first time, about 0.1 s with a few secrets): false means it cannot hold a secret.
   */
  scans(text: string): boolean {
    if (this.#re === undefined || text.length < this.#minLength) return false;
    return this.#trigger === undefined || this.#trigger.test(text);
  }

  /** The string with every secret replaced by `***`; the same string when nothing matched. */
  redactString(s: string): string {
    const re = this.#re;
    if (re === undefined || !this.scans(s)) return s;
    re.lastIndex = 0;
    if (!re.test(s)) return s;
    return this.#patterns ? s.replace(re, replaceKeepingPrefix) : s.replace(re, REDACTED);
  }

  /**
   * Redacts `text` as a stream does: releases all but its last `keep` characters (redacted), and
   * holds those back raw, to be redacted together with what comes next. A match that starts
   * before the cut is released whole (redacted), so the held part never holds half a secret that
   * was already released. Returns `[released, held]`.
   */
  redactHead(text: string, keep: number): [string, string] {
    let cut = Math.max(0, text.length - keep);
    // Never split a surrogate pair.
    if (cut > 0 && cut < text.length && /[\uD800-\uDBFF]/.test(text[cut - 1] as string)) cut--;
    const re = this.#re;
    if (re === undefined || !this.scans(text)) {
      return [text.slice(0, cut), text.slice(cut)];
    }
    let out = '';
    let at = 0;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null && m.index < cut; m = re.exec(text)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      out += text.slice(at, m.index) + (this.#patterns ? replaceKeepingPrefix(m[0], m[1], m[2]) : REDACTED);
      at = m.index + m[0].length;
    }
    cut = Math.max(cut, at);
    return [out + text.slice(at, cut), text.slice(cut)];
  }

  /**
   * Redacts every string in a value, descending into plain objects and arrays (other objects are
   * left alone). Copies only the objects on the path to a change; returns `value` itself when
   * nothing matched.
   */
  redact<T>(value: T): T {
    if (this.#re === undefined) return value;
    return this.#walk(value, 0) as T;
  }

  #walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redactString(value);
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const redacted = this.#walk(item, depth + 1);
        if (redacted !== item) {
          copy ??= value.slice();
          copy[i] = redacted;
        }
      }
      return copy ?? value;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key in record) {
      if (!Object.hasOwn(record, key)) continue;
      const item = record[key];
      const redacted = this.#walk(item, depth + 1);
      if (redacted !== item) {
        copy ??= { ...record };
        copy[key] = redacted;
      }
    }
    return copy ?? value;
  }
}

/**
 * Keeps an Authorization header's name and scheme, or `Bearer `, in front of `***`. Only for the
 * expression with token patterns: its two capture groups are theirs (literal secrets have none).
 */
function replaceKeepingPrefix(_match: string, keepHeader: string | undefined, keepBearer: string | undefined): string {
  return (keepHeader ?? keepBearer ?? '') + REDACTED;
}
