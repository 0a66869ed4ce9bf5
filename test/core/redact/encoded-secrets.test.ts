import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CostTracker } from '../../../src/core/cost/cost-tracker.ts';
import type { AgentEvent, EventDraft } from '../../../src/core/events/index.ts';
import { MIN_ENCODED_SECRET_LENGTH, Redactor, StreamRedactor } from '../../../src/core/redact/index.ts';
import { RunEmitter } from '../../../src/core/run/run-emitter.ts';
import type { GitHubApi } from '../../../src/github/github-api.ts';
import { redactingApi } from '../../../src/github/redacting-api.ts';

// Assembled at run time so that no token-shaped literal sits in the repository.
const TOKEN = `ghs_${'Zq9Wx7Kp3Lm5Nb1Vc8Rt'.repeat(2)}`;
const SHORT = 'Pa55wd'; // 6 characters: literal and character-level forms only
const PASSWORD = 'hunter2-correct&horse/battery "staple"';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const percentAll = (s: string) =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const jsonEscapes = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const entitiesDec = (s: string) => [...s].map((c) => `&#${c.codePointAt(0)};`).join('');
const entitiesHex = (s: string) => [...s].map((c) => `&#x${(c.codePointAt(0) as number).toString(16)};`).join('');
const named: Record<string, string> = { '&': '&amp;', '/': '&sol;', '"': '&quot;', '-': '-', ' ': ' ' };
const entitiesNamed = (s: string) => [...s].map((c) => named[c] ?? c).join('');
const reversed = (s: string) => [...s].reverse().join('');
const interleave = (s: string, invisible: string) => [...s].join(invisible);
const mixedCase = (s: string) => [...s].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');

/** One way of smuggling a secret out: how it is encoded and which secret. */
interface Attack {
  name: string;
  secret: string;
  leak: (secret: string) => string;
}

/** The table of attacks: one row each, so a regression names the attack that works again. */
const attacks: Attack[] = [
  { name: 'literal', secret: TOKEN, leak: (s) => s },
  { name: 'short literal (6 chars)', secret: SHORT, leak: (s) => s },
  { name: 'base64', secret: TOKEN, leak: b64 },
  { name: 'base64 of a password with symbols', secret: PASSWORD, leak: b64 },
  { name: 'base64, secret at offset 1 of a longer text', secret: TOKEN, leak: (s) => b64(`a${s}z`) },
  { name: 'base64, secret at offset 2 of a longer text', secret: TOKEN, leak: (s) => b64(`ab${s}yz`) },
  { name: 'base64 of x-access-token:TOKEN', secret: TOKEN, leak: (s) => b64(`x-access-token:${s}`) },
  { name: 'base64 of :TOKEN', secret: TOKEN, leak: (s) => b64(`:${s}`) },
  {
    name: 'AUTHORIZATION: basic header from .git/config',
    secret: TOKEN,
    leak: (s) => `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${b64(`x-access-token:${s}`)}`,
  },
  { name: 'base64url', secret: PASSWORD, leak: b64url },
  { name: 'base64url at offset 1', secret: PASSWORD, leak: (s) => b64url(`?${s}`) },
  { name: 'hex lower', secret: TOKEN, leak: hex },
  { name: 'hex upper', secret: TOKEN, leak: (s) => hex(s).toUpperCase() },
  { name: 'hex mixed case', secret: TOKEN, leak: (s) => mixedCase(hex(s)) },
  { name: 'hex \\x escapes', secret: PASSWORD, leak: (s) => hex(s).replace(/../g, '\\x$&') },
  { name: 'percent-encoding (encodeURIComponent)', secret: PASSWORD, leak: encodeURIComponent },
  { name: 'percent-encoding of every byte', secret: TOKEN, leak: percentAll },
  { name: 'percent-encoding upper case', secret: TOKEN, leak: (s) => percentAll(s).toUpperCase() },
  { name: 'JSON \\u escapes', secret: TOKEN, leak: jsonEscapes },
  { name: 'JSON.stringify of a password with quotes', secret: PASSWORD, leak: (s) => JSON.stringify(s) },
  { name: 'HTML decimal entities', secret: TOKEN, leak: entitiesDec },
  { name: 'HTML hex entities', secret: SHORT, leak: entitiesHex },
  { name: 'HTML named entities', secret: PASSWORD, leak: entitiesNamed },
  { name: 'reversed', secret: TOKEN, leak: reversed },
  { name: 'reversed short', secret: SHORT, leak: reversed },
  { name: 'zero-width spaces interleaved', secret: TOKEN, leak: (s) => interleave(s, '\u200B') },
  { name: 'zero-width joiners interleaved', secret: SHORT, leak: (s) => interleave(s, '\u200D\u200C') },
  { name: 'word joiners interleaved', secret: TOKEN, leak: (s) => interleave(s, '\u2060') },
  { name: 'BOMs interleaved', secret: TOKEN, leak: (s) => interleave(s, '\uFEFF') },
  { name: 'soft hyphens interleaved', secret: PASSWORD, leak: (s) => interleave(s, '\u00AD') },
  { name: 'zero-width spaces in base64', secret: TOKEN, leak: (s) => interleave(b64(s), '\u200B') },
];

/** Where leaked text goes, each through the path the product really uses. */
type Sink = (redactor: Redactor, text: string) => Promise<string>;

const ref = { owner: 'o', repo: 'r' };

/** A GitHub API that records the bodies written to it. */
function recordingApi(written: unknown[]): GitHubApi {
  const record = (value: unknown) => {
    written.push(value);
  };
  return {
    createComment: async (_ref, _n, body) => {
      record(body);
      return { id: 1, body, htmlUrl: '', user: undefined, createdAt: '', updatedAt: '' };
    },
    updateCheckRun: async (_ref, _id, update) => record(update),
  } as Partial<GitHubApi> as GitHubApi;
}

function emitted(redactor: Redactor, drafts: EventDraft[]): AgentEvent[] {
  const events: AgentEvent[] = [];
  const emitter = new RunEmitter({
    runId: 'run_1',
    agent: 'codex',
    debug: false,
    redactor,
    costs: new CostTracker(),
    onEvent: (event) => events.push(event),
  });
  for (const draft of drafts) emitter.emit(draft);
  emitter.end({ type: 'run_end', reason: 'completed', durationMs: 1, attempts: 1 });
  return events;
}

const sinks: Record<string, Sink> = {
  'event text': async (redactor, text) =>
    emitted(redactor, [{ type: 'text_delta', delta: `Here it is: ${text} done.` }])
      .map((e) => (e.type === 'text_delta' ? e.delta : ''))
      .join(''),
  'tool args': async (redactor, text) =>
    JSON.stringify(
      emitted(redactor, [
        { type: 'tool_call_ready', toolCallId: 'c1', toolName: 'bash', input: { command: `curl -d '${text}' x` } },
      ]),
    ),
  'comment body': async (redactor, text) => {
    const written: unknown[] = [];
    await redactingApi(recordingApi(written), redactor).createComment(ref, 1, `> agent says\n\n${text}\n`);
    return JSON.stringify(written);
  },
  'check-run text': async (redactor, text) => {
    const written: unknown[] = [];
    await redactingApi(recordingApi(written), redactor).updateCheckRun(ref, 7, {
      output: { title: 't', summary: 's', text: `[00:01] agent: ${text}` },
    });
    return JSON.stringify(written);
  },
  // The Action writes `redactor.redactString(renderJobSummary(…))` (src/action/run.ts).
  'job summary': async (redactor, text) => redactor.redactString(`## agent-mux\n\n| log |\n|---|\n| ${text} |\n`),
};

/**
 * Whether `text` still gives `secret` away: decodes every encoding the attacks use (and base64
 * runs at every start) and looks for the secret and its reverse in each reading.
 */
function reveals(text: string, secret: string): boolean {
  const json = (s: string) =>
    s.replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const readings = new Set<string>([text, JSON.stringify(text)]);
  const add = (s: string) => {
    readings.add(s);
    readings.add(reversed(s));
  };
  const plain = text.replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '');
  add(plain);
  add(json(json(plain)).replace(/\\(["\\/])/g, '$1'));
  add(
    plain.replace(/&#x([0-9a-f]+);?|&#(\d+);?/gi, (_m, h?: string, d?: string) =>
      String.fromCodePoint(h ? Number.parseInt(h, 16) : Number(d)),
    ),
  );
  add(plain.replace(/&(amp|sol|quot);/g, (_m, n: string) => ({ amp: '&', sol: '/', quot: '"' })[n] ?? ''));
  try {
    add(decodeURIComponent(plain));
  } catch {
    // not percent-encoded text
  }
  add(plain.replace(/\\x([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))));
  for (const run of plain.match(/[0-9a-fA-F]{16,}/g) ?? []) {
    for (const start of [0, 1]) add(Buffer.from(run.slice(start), 'hex').toString('latin1'));
  }
  for (const run of plain.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (const start of [0, 1, 2, 3]) add(Buffer.from(run.slice(start), 'base64').toString('latin1'));
  }
  const needles = [secret, reversed(secret)];
  return [...readings].some((reading) => needles.some((needle) => reading.includes(needle)));
}

describe('encoded secrets: the attack table', () => {
  const cases = attacks.flatMap((attack) => Object.keys(sinks).map((sink) => ({ ...attack, sink })));

  it.each(cases)('$name → $sink: no encoding of the secret survives', async ({ secret, leak, sink }) => {
    const redactor = new Redactor([secret, TOKEN]);
    const text = leak(secret);
    // The attack is real: without redaction the secret can be read back.
    expect(reveals(text, secret)).toBe(true);
    const out = await (sinks[sink] as Sink)(redactor, text);
    expect(out).toContain('***');
    expect(reveals(out, secret)).toBe(false);
  });

  it.each(attacks)('$name split across two text_delta events is redacted whole', ({ secret, leak }) => {
    const text = `before ${leak(secret)} after`;
    for (const cut of [8, Math.floor(text.length / 2), text.length - 8]) {
      const events = emitted(new Redactor([secret]), [
        { type: 'text_delta', delta: text.slice(0, cut), messageId: 'm1' },
        { type: 'text_delta', delta: text.slice(cut), messageId: 'm1' },
        { type: 'message_stop', messageId: 'm1' },
      ]);
      const deltas = events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.delta : ''));
      // No delta on its own, nor the deltas together, gives the secret away; the order holds.
      for (const delta of deltas) expect(reveals(delta, secret)).toBe(false);
      expect(reveals(deltas.join(''), secret)).toBe(false);
      expect(deltas.join('')).toMatch(/^before .*\*\*\*.* after$/s);
      expect(events.map((e) => e.type).slice(-2)).toEqual(['message_stop', 'run_end']);
    }
  });
});

describe('encoded secrets: precision', () => {
  it(`gives secrets shorter than ${MIN_ENCODED_SECRET_LENGTH} characters no base64 or hex form`, () => {
    const redactor = new Redactor([SHORT], { patterns: false });
    expect(redactor.redactString(`x ${b64(SHORT)} ${hex(SHORT)} y`)).toBe(`x ${b64(SHORT)} ${hex(SHORT)} y`);
    expect(redactor.redactString(`x ${SHORT} y`)).toBe('x *** y');
  });

  it('leaves text with other secrets, encodings and invisible characters alone', () => {
    const redactor = new Redactor([TOKEN, PASSWORD]);
    const text = `a%20b &amp; c\\u0041 ${b64('another-value-entirely')} ${hex('nothing to see here')} 👨\u200D👩 e\u00ADf`;
    expect(redactor.redactString(text)).toBe(text);
  });

  it('StreamRedactor holds back only what could start a secret and releases it at the end', () => {
    const redactor = new Redactor([TOKEN], { patterns: false });
    const stream = new StreamRedactor(redactor);
    const long = 'x'.repeat(2000);
    const first = stream.push(long);
    expect(first.length + stream.heldLength).toBe(2000);
    expect(stream.heldLength).toBe(redactor.maxSecretMatchLength - 1);
    expect(stream.push(TOKEN.slice(0, 10)) + stream.push(TOKEN.slice(10)) + stream.end()).toBe(
      `${long.slice(first.length)}***`,
    );
  });
});

describe('encoded secrets: properties', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~!$&/+=';
  const secretArb = fc.string({
    unit: fc.constantFrom(...alphabet),
    minLength: MIN_ENCODED_SECRET_LENGTH,
    maxLength: 40,
  });
  const textArb = fc.string({ unit: fc.constantFrom(...`${alphabet} \n`), maxLength: 60 });
  const encodings: Record<string, (s: string) => string> = {
    literal: (s) => s,
    base64: b64,
    base64url: b64url,
    hex,
    HEX: (s) => hex(s).toUpperCase(),
    percent: percentAll,
    json: jsonEscapes,
    entities: entitiesDec,
    reversed,
    invisible: (s) => interleave(s, '\u200B'),
  };

  it.each(Object.entries(encodings))('a random secret embedded in random text as %s is redacted', (_name, encode) => {
    fc.assert(
      fc.property(secretArb, textArb, textArb, (secret, before, after) => {
        const redactor = new Redactor([secret], { patterns: false });
        // Embedded in the encoded text too: the secret at any alignment inside a longer encoding.
        const out = redactor.redactString(`${before}${encode(`${before}${secret}${after}`)}${after}`);
        expect(reveals(out, secret)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('leaves random text of the same alphabet unchanged when it does not contain the secret', () => {
    // Each encoded form of a secret of 8+ characters fixes at least 60 bits, so a random text of
    // 200 characters matches one by chance with a probability below 200 · 16 · 2⁻⁶⁰ < 3·10⁻¹²
    // per run; the runs below would fail with probability < 10⁻⁸ if redaction over-matched.
    fc.assert(
      fc.property(secretArb, fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 200 }), (secret, text) => {
        fc.pre(!text.includes(secret) && !text.includes(reversed(secret)));
        for (const encode of Object.values(encodings)) {
          const encoded = encode(text);
          expect(new Redactor([secret], { patterns: false }).redactString(encoded)).toBe(encoded);
        }
      }),
      { numRuns: 300 },
    );
  });
});
