import { Buffer } from 'node:buffer';
import { RecordPipeline } from '../src/core/run/record-pipeline.ts';
import { loadSpecs } from '../test/live/load-specs.ts';
import { recordedCases } from '../test/live/recordings.ts';
import { type Benchmark, collectGarbage, fixed, int, median, mib, type Target } from './bench-kit.ts';

const TARGET_BYTES = Number(process.env.AGENT_MUX_BENCH_MB ?? 100) * 2 ** 20;
const CHUNK = 64 * 1024;
const ROUNDS = 3;
const TARGET_RATIO = 0.7;

/** An adapter's recorded native streams, joined and repeated to about TARGET_BYTES. */
function corpus(streams: readonly Buffer[]): Buffer {
  const one = Buffer.concat(streams.map((s) => (s.at(-1) === 0x0a ? s : Buffer.concat([s, Buffer.from('\n')]))));
  const copies = Math.max(1, Math.round(TARGET_BYTES / Math.max(1, one.length)));
  return Buffer.concat(Array.from({ length: copies }, () => one));
}

function chunksOf(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

export const benchmark: Benchmark = {
  name: 'adapter-translation',
  title: `each CLI adapter's translator on its own recordings (~${mib(TARGET_BYTES)}) vs split + JSON.parse`,
  async run(log) {
    const targets: Target[] = [];
    const facts: string[] = [];
    const flags: string[] = [];
    for (const spec of await loadSpecs()) {
      const recorded = recordedCases(spec);
      if (recorded.length === 0) continue;
      const launch = spec.create().launch;
      if (launch.kind !== 'process') continue;
      const bytes = corpus(recorded.map((r) => r.stdout));
      const chunks = chunksOf(bytes);
      const translate = () => {
        let drafts = 0;
        const pipeline = new RecordPipeline({
          translator: launch.translator,
          protocol: 'json-lines',
          debug: false,
          emit: () => drafts++,
        });
        // Every line goes through the translator: nothing is skipped or sampled.
        for (const chunk of chunks) pipeline.pushStdout(chunk);
        pipeline.end();
        return drafts;
      };
      const bare = () => {
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
      };
      translate();
      bare();
      const ratios: number[] = [];
      let a = 0;
      let b = 0;
      let events = 0;
      for (let round = 0; round < ROUNDS; round++) {
        collectGarbage();
        let t = performance.now();
        events = translate();
        a = performance.now() - t;
        collectGarbage();
        t = performance.now();
        const lines = bare();
        b = performance.now() - t;
        ratios.push(b / a);
        if (round === 0)
          log(
            `${spec.adapter}: ${recorded.length} recordings, ${mib(bytes.length)}, ${int(lines)} lines → ${int(events)} events`,
          );
      }
      const ratio = median(ratios);
      log(
        `  translate ${fixed(a, 0)} ms, bare ${fixed(b, 0)} ms; ratio per round ${ratios.map((r) => fixed(r)).join(' ')} → ${fixed(ratio)}`,
      );
      targets.push({
        label: `${spec.adapter} translate/bare ratio (median)`,
        value: ratio,
        op: '>=',
        limit: TARGET_RATIO,
        unit: '',
      });
      facts.push(
        `${spec.adapter}: ${int(bytes.length / 2 ** 20 / (a / 1000))} MiB/s translated, ${int(events)} events`,
      );
      if (events === 0) flags.push(`${spec.adapter}: its recordings translate to no events`);
    }
    return { targets, facts, flags };
  },
};
