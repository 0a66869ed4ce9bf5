import { Buffer } from 'node:buffer';
import type { Translator } from '../src/core/adapter/index.ts';
import { LineDecoder } from '../src/core/decode/line-decoder.ts';
import { parseRecord } from '../src/core/decode/parse-record.ts';
import { RecordPipeline } from '../src/core/run/record-pipeline.ts';
import { loadSpecs } from '../test/live/load-specs.ts';
import { recordedCases } from '../test/live/recordings.ts';
import { collectGarbage, fixed, median, mib } from './bench-kit.ts';
import { FreshIdStream } from './fresh-ids.ts';

/**
 * Where a CLI adapter's translation time goes, stage by stage, on the stream adapter-translation
 * builds (fresh ids per copy, 64 KiB chunks). Not part of `npm run bench`; a tool for issue 18:
 *
 *   node --expose-gc bench/pipeline-stages.ts codex [MiB] [rounds]
 *   node --expose-gc --cpu-prof bench/pipeline-stages.ts codex 50 3 profile   (full pipeline only)
 */
const adapter = process.argv[2] ?? 'codex';
const targetBytes = Number(process.argv[3] ?? 50) * 2 ** 20;
const rounds = Number(process.argv[4] ?? 5);
/** `profile` runs only the full pipeline (or the stage named by `AGENT_MUX_BENCH_STAGE`), for --cpu-prof or --trace-gc. */
const profileOnly = process.argv[5] === 'profile';
const CHUNK = 64 * 1024;

const spec = (await loadSpecs()).find((s) => s.adapter === adapter);
if (!spec) throw new Error(`no spec for ${adapter}`);
const launch = spec.create().launch;
if (launch.kind !== 'process') throw new Error(`${adapter} is not a process adapter`);
const translator: Translator = launch.translator;
const one = Buffer.concat(
  recordedCases(spec).map((r) => (r.stdout.at(-1) === 0x0a ? r.stdout : Buffer.concat([r.stdout, Buffer.from('\n')]))),
);
const fresh = new FreshIdStream(one);
const long = fresh.copies(Math.max(2, Math.round(targetBytes / fresh.bytesPerCopy)));
const chunks: Buffer[] = [];
for (let i = 0; i < long.length; i += CHUNK) chunks.push(long.subarray(i, i + CHUNK));

type Stage = () => number;
const stages: Record<string, Stage> = {
  bare: () => {
    let n = 0;
    for (const line of long.toString('utf8').split('\n')) {
      if (line === '') continue;
      try {
        if ((JSON.parse(line) as unknown) !== null) n++;
      } catch {
        n++;
      }
    }
    return n;
  },
  'LineDecoder only': () => {
    let n = 0;
    const decoder = new LineDecoder({ onLine: () => n++ });
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return n;
  },
  '+ parseRecord': () => {
    let n = 0;
    const decoder = new LineDecoder({ onLine: (line) => parseRecord(line, 'json-lines').kind === 'json' && n++ });
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return n;
  },
  '+ RecordPipeline, no-op translator': () => {
    let n = 0;
    const pipeline = new RecordPipeline({
      translator: { init: () => ({ debug: false }), translate: () => [] },
      protocol: 'json-lines',
      debug: false,
      emit: () => n++,
    });
    for (const chunk of chunks) pipeline.pushStdout(chunk);
    pipeline.end();
    return n;
  },
  '+ translator (the benchmark)': () => {
    let n = 0;
    const pipeline = new RecordPipeline({ translator, protocol: 'json-lines', debug: false, emit: () => n++ });
    for (const chunk of chunks) pipeline.pushStdout(chunk);
    pipeline.end();
    return n;
  },
};

const lines = stages.bare!();
process.stdout.write(`${adapter}: ${mib(long.length)}, ${lines} lines, ${fixed(long.length / lines, 0)} bytes/line\n`);
if (profileOnly) {
  const only = stages[process.env.AGENT_MUX_BENCH_STAGE ?? '+ translator (the benchmark)'];
  if (!only) throw new Error(`stages: ${Object.keys(stages).join(', ')}`);
  collectGarbage();
  for (let r = 0; r < rounds; r++) only();
  process.exit();
}
for (const stage of Object.values(stages)) stage();
const ms: Record<string, number[]> = Object.fromEntries(Object.keys(stages).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  // Alternate the order each round so drift in machine load spreads over all stages.
  const names = Object.keys(stages);
  if (r % 2 === 1) names.reverse();
  for (const name of names) {
    collectGarbage();
    const t = performance.now();
    stages[name]!();
    ms[name]!.push(performance.now() - t);
  }
}
const bareMs = ms.bare!;
for (const [name, list] of Object.entries(ms)) {
  const ratios = list.map((m, i) => bareMs[i]! / m);
  process.stdout.write(
    `  ${name.padEnd(36)} median ${fixed(median(list), 0).padStart(5)} ms  ${fixed((median(list) * 1e6) / lines, 0).padStart(5)} ns/line  bare÷this ${fixed(median(ratios))} [${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))}]\n`,
  );
}
process.exit();
