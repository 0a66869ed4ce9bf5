import { Buffer } from 'node:buffer';
import type { Translator } from '../src/core/adapter/index.ts';
import { RecordPipeline } from '../src/core/run/record-pipeline.ts';
import { loadSpecs } from '../test/live/load-specs.ts';
import { recordedCases } from '../test/live/recordings.ts';
import { type Benchmark, collectGarbage, fixed, int, median, mib, type Target } from './bench-kit.ts';
import { FreshIdStream } from './fresh-ids.ts';

/** The long stream: about 50 MB, as a long agent session prints. */
const TARGET_BYTES = Number(process.env.AGENT_MUX_BENCH_MB ?? 50) * 2 ** 20;
/** The short stream the growth check compares with. */
const SHORT_BYTES = 2 ** 20;
/** `AGENT_MUX_BENCH_ADAPTERS=codex,copilot` measures only those adapters. */
const ONLY = process.env.AGENT_MUX_BENCH_ADAPTERS?.split(',').filter(Boolean);
const CHUNK = 64 * 1024;
const ROUNDS = 5;
const TARGET_RATIO = 0.7;
/** Throughput on the long stream ÷ on the short one: below this, a path grows with the stream. */
const TARGET_GROWTH = 0.8;
/**
 * Events a translator may make once per run, whatever the number of sessions it sees: the session's
 * announcement, and the turn markers of OpenCode and Kilo, whose whole run is one turn.
 */
const ONCE_PER_RUN = new Set(['session_start', 'session_resume', 'session_fork', 'turn_start', 'turn_end']);

function chunksOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

/** Translates a whole stream in one pipeline; counts the drafts (all, and those not `ONCE_PER_RUN`). */
function translate(translator: Translator, chunks: readonly Buffer[]): { all: number; repeatable: number } {
  let all = 0;
  let repeatable = 0;
  const pipeline = new RecordPipeline({
    translator,
    protocol: 'json-lines',
    debug: false,
    emit: (draft) => {
      all++;
      if (!ONCE_PER_RUN.has(draft.type)) repeatable++;
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

export const benchmark: Benchmark = {
  name: 'adapter-translation',
  title: `each CLI adapter's translator on its recordings, copied with fresh ids to ~${mib(TARGET_BYTES)}, vs split + JSON.parse; growth ${mib(SHORT_BYTES)} → ${mib(TARGET_BYTES)}`,
  async run(log) {
    const targets: Target[] = [];
    const facts: string[] = [];
    const flags: string[] = [];
    for (const spec of await loadSpecs()) {
      const recorded = recordedCases(spec);
      if (recorded.length === 0 || (ONLY && !ONLY.includes(spec.adapter))) continue;
      const launch = spec.create().launch;
      if (launch.kind !== 'process') continue;
      const { translator } = launch;
      const one = Buffer.concat(
        recorded.map((r) => (r.stdout.at(-1) === 0x0a ? r.stdout : Buffer.concat([r.stdout, Buffer.from('\n')]))),
      );
      const fresh = new FreshIdStream(one);
      const copies = Math.max(2, Math.round(TARGET_BYTES / fresh.bytesPerCopy));
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

      translate(translator, shortChunks);
      bare(short);
      const ratios: number[] = [];
      const growths: number[] = [];
      let a = 0;
      let b = 0;
      let s = 0;
      let lines = 0;
      for (let round = 0; round < ROUNDS; round++) {
        a = timed(() => translate(translator, longChunks));
        b = timed(() => {
          lines = bare(long);
        });
        s = timed(() => {
          for (let i = 0; i < shortRepeats; i++) translate(translator, shortChunks);
        });
        ratios.push(b / a);
        // MB/s on the long stream ÷ MB/s on the short one.
        growths.push(long.length / a / ((short.length * shortRepeats) / s));
      }
      const ratio = median(ratios);
      const growth = median(growths);
      const per1000 = (longEvents.all / lines) * 1000;
      const per1000Repeated = (repeated.all / (linesPerCopy * 10)) * 1000;
      log(
        `${spec.adapter}: ${recorded.length} recordings × ${int(copies)} fresh copies, ${mib(long.length)}, ${int(lines)} lines → ${int(longEvents.all)} events (${fixed(per1000, 0)} per 1,000 lines; ${fixed(per1000Repeated, 0)} on the verbatim-repeated stream)`,
      );
      log(
        `  events per copy ${int(perCopy)} (one recording: ${int(first.repeatable)}, plus ${int(first.all - first.repeatable)} once per run) ${sameWork ? 'ok' : 'MISMATCH'}`,
      );
      log(
        `  translate ${fixed(a, 0)} ms, bare ${fixed(b, 0)} ms; ratio per round ${ratios.map((r) => fixed(r)).join(' ')} → ${fixed(ratio)}`,
      );
      log(
        `  ${int(long.length / 2 ** 20 / (a / 1000))} MiB/s at ${mib(long.length)} vs ${int((short.length * shortRepeats) / 2 ** 20 / (s / 1000))} MiB/s at ${mib(short.length)}; growth per round ${growths.map((g) => fixed(g)).join(' ')} → ${fixed(growth)}`,
      );
      targets.push(
        {
          label: `${spec.adapter} translate/bare ratio (median)`,
          value: ratio,
          op: '>=',
          limit: TARGET_RATIO,
          unit: '',
        },
        {
          label: `${spec.adapter} throughput ${mib(long.length)} ÷ ${mib(short.length)} (median)`,
          value: growth,
          op: '>=',
          limit: TARGET_GROWTH,
          unit: '',
        },
        {
          label: `${spec.adapter} events per fresh copy = one recording's (1 = yes)`,
          value: sameWork ? 1 : 0,
          op: '>=',
          limit: 1,
          unit: '',
          digits: 0,
        },
      );
      facts.push(
        `${spec.adapter}: ${int(long.length / 2 ** 20 / (a / 1000))} MiB/s translated, ${fixed(per1000, 0)} events per 1,000 lines`,
      );
      if (longEvents.all === 0) flags.push(`${spec.adapter}: its recordings translate to no events`);
    }
    return { targets, facts, flags };
  },
};
