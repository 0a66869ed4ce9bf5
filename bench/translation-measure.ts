import { Buffer } from 'node:buffer';
import type { Translator } from '../src/core/adapter/index.ts';
import { RecordPipeline } from '../src/core/run/record-pipeline.ts';
import { loadSpecs } from '../test/live/load-specs.ts';
import { recordedCases } from '../test/live/recordings.ts';
import { collectGarbage, fixed, int, median, mib } from './bench-kit.ts';
import { FreshIdStream } from './fresh-ids.ts';

const CHUNK = 64 * 1024;
const ROUNDS = 5;
/** The short stream the growth check compares with. */
const SHORT_BYTES = 2 ** 20;
/**
 * Events a translator may make once per run, whatever the number of sessions it sees: the session's
 * announcement, and the turn markers of OpenCode and Kilo, whose whole run is one turn.
 */
const ONCE_PER_RUN = new Set(['session_start', 'session_resume', 'session_fork', 'turn_start', 'turn_end']);

/** What one adapter's measurement found (plain data: it crosses from a worker thread). */
export interface TranslationMeasure {
  adapter: string;
  /** The readable block, line by line. */
  lines: string[];
  /** bare ÷ translate time on the long stream, median of the rounds (higher is faster). */
  ratio: number;
  /** Throughput on the long stream ÷ on the short one, median of the rounds. */
  growth: number;
  /** Every fresh copy made the events one recording makes. */
  sameWork: boolean;
  mibPerSecond: number;
  eventsPer1000Lines: number;
  events: number;
  longBytes: number;
  shortBytes: number;
}

/** The CLI adapters (process launch) that have recordings, in the specs' order. */
export async function recordedAdapters(): Promise<string[]> {
  const adapters: string[] = [];
  for (const spec of await loadSpecs()) {
    if (recordedCases(spec).length > 0 && spec.create().launch.kind === 'process') adapters.push(spec.adapter);
  }
  return adapters;
}

/**
 * Measures one adapter's translator on its recordings copied with fresh ids to about `targetBytes`,
 * against bare `split` + `JSON.parse` of the same bytes, alternating round by round.
 */
export async function measureTranslation(adapter: string, targetBytes: number): Promise<TranslationMeasure> {
  const spec = (await loadSpecs()).find((s) => s.adapter === adapter);
  if (!spec) throw new Error(`no live spec for adapter ${adapter}`);
  const recorded = recordedCases(spec);
  const launch = spec.create().launch;
  if (launch.kind !== 'process' || recorded.length === 0) throw new Error(`${adapter}: no recorded process adapter`);
  const { translator } = launch;
  const one = Buffer.concat(
    recorded.map((r) => (r.stdout.at(-1) === 0x0a ? r.stdout : Buffer.concat([r.stdout, Buffer.from('\n')]))),
  );
  const fresh = new FreshIdStream(one);
  const copies = Math.max(2, Math.round(targetBytes / fresh.bytesPerCopy));
  const shortCopies = Math.max(1, Math.round(SHORT_BYTES / fresh.bytesPerCopy));
  const long = fresh.copies(copies);
  const short = fresh.copies(shortCopies);
  const longChunks = chunksOf(long);
  const shortChunks = chunksOf(short);
  // The short stream translated as many times as it takes to do the long stream's work.
  const shortRepeats = Math.max(1, Math.round(long.length / short.length));

  // Every fresh copy must translate to what one recording does (the run's announcements aside),
  // and the long stream to exactly that many per copy: ids seen before would skip work.
  const first = translate(translator, chunksOf(fresh.copies(1)));
  const two = translate(translator, chunksOf(fresh.copies(2)));
  const perCopy = two.repeatable - first.repeatable;
  const longEvents = translate(translator, longChunks);
  const expected = first.all + (copies - 1) * (two.all - first.all);
  const sameWork = perCopy === first.repeatable && longEvents.all === expected;
  const repeated = translate(translator, chunksOf(Buffer.concat(Array.from({ length: 10 }, () => one))));
  const linesPerCopy = bare(one);

  translate(translator, shortChunks, false);
  bare(short);
  const ratios: number[] = [];
  const growths: number[] = [];
  let a = 0;
  let b = 0;
  let s = 0;
  let lineCount = 0;
  for (let round = 0; round < ROUNDS; round++) {
    a = timed(() => translate(translator, longChunks, false));
    b = timed(() => {
      lineCount = bare(long);
    });
    s = timed(() => {
      for (let i = 0; i < shortRepeats; i++) translate(translator, shortChunks, false);
    });
    ratios.push(b / a);
    // MB/s on the long stream ÷ MB/s on the short one.
    growths.push(long.length / a / ((short.length * shortRepeats) / s));
  }
  const ratio = median(ratios);
  const growth = median(growths);
  const per1000 = (longEvents.all / lineCount) * 1000;
  const per1000Repeated = (repeated.all / (linesPerCopy * 10)) * 1000;
  const mibPerSecond = long.length / 2 ** 20 / (a / 1000);
  return {
    adapter,
    lines: [
      `${adapter}: ${recorded.length} recordings × ${int(copies)} fresh copies, ${mib(long.length)}, ${int(lineCount)} lines → ${int(longEvents.all)} events (${fixed(per1000, 0)} per 1,000 lines; ${fixed(per1000Repeated, 0)} on the verbatim-repeated stream)`,
      `  events per copy ${int(perCopy)} (one recording: ${int(first.repeatable)}, plus ${int(first.all - first.repeatable)} once per run) ${sameWork ? 'ok' : 'MISMATCH'}`,
      `  translate ${fixed(a, 0)} ms, bare ${fixed(b, 0)} ms; ratio per round ${ratios.map((r) => fixed(r)).join(' ')} → ${fixed(ratio)}`,
      `  ${int(mibPerSecond)} MiB/s at ${mib(long.length)} vs ${int((short.length * shortRepeats) / 2 ** 20 / (s / 1000))} MiB/s at ${mib(short.length)}; growth per round ${growths.map((g) => fixed(g)).join(' ')} → ${fixed(growth)}`,
    ],
    ratio,
    growth,
    sameWork,
    mibPerSecond,
    eventsPer1000Lines: per1000,
    events: longEvents.all,
    longBytes: long.length,
    shortBytes: short.length,
  };
}

function chunksOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

/**
 * Translates a whole stream in one pipeline; counts the drafts (all, and those not `ONCE_PER_RUN`).
 * `classify` false (the timed rounds): the drafts are only counted, so that the time is the
 * pipeline's and the translator's, not this benchmark's bookkeeping.
 */
function translate(
  translator: Translator,
  chunks: readonly Buffer[],
  classify = true,
): { all: number; repeatable: number } {
  let all = 0;
  let repeatable = 0;
  const pipeline = new RecordPipeline({
    translator,
    protocol: 'json-lines',
    debug: false,
    emit: classify
      ? (draft) => {
          all++;
          if (!ONCE_PER_RUN.has(draft.type)) repeatable++;
        }
      : () => {
          all++;
        },
  });
  // Every line goes through the translator: nothing is skipped or sampled.
  for (const chunk of chunks) pipeline.pushStdout(chunk);
  pipeline.end();
  return { all, repeatable };
}

/** The baseline: split into lines and `JSON.parse` each. */
function bare(bytes: Buffer): number {
  let records = 0;
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line === '') continue;
    try {
      if ((JSON.parse(line) as { type?: unknown }) !== null) records++;
    } catch {
      records++;
    }
  }
  return records;
}

function timed(fn: () => void): number {
  collectGarbage();
  const t = performance.now();
  fn();
  return performance.now() - t;
}
