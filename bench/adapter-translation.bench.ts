import { Worker } from 'node:worker_threads';
import { type Benchmark, fixed, int, mib, type Target } from './bench-kit.ts';
import { measureTranslation, recordedAdapters, type TranslationMeasure } from './translation-measure.ts';

/** The long stream: about 50 MB, as a long agent session prints. */
const TARGET_BYTES = Number(process.env.AGENT_MUX_BENCH_MB ?? 50) * 2 ** 20;
/** `AGENT_MUX_BENCH_ADAPTERS=codex,copilot` measures only those adapters. */
const ONLY = process.env.AGENT_MUX_BENCH_ADAPTERS?.split(',').filter(Boolean);
/**
 * `AGENT_MUX_BENCH_SHARED=1` measures every adapter in this one isolate, one after another (as an
 * app worker translating several agents does); by default each gets a worker thread of its own.
 */
const SHARED = process.env.AGENT_MUX_BENCH_SHARED === '1';
const TARGET_RATIO = 0.7;
/** Throughput on the long stream ÷ on the short one: below this, a path grows with the stream. */
const TARGET_GROWTH = 0.8;

/**
 * One adapter measured in a fresh isolate. In one shared isolate an adapter's ratio depends on which
 * adapters ran before it (their types make the shared pipeline and ledger code polymorphic), by
 * more than the differences this benchmark is meant to show.
 */
function measureIsolated(adapter: string): Promise<TranslationMeasure> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./translation-worker.ts', import.meta.url), {
      workerData: { adapter, targetBytes: TARGET_BYTES },
    });
    let result: TranslationMeasure | undefined;
    worker.once('message', (message: TranslationMeasure) => {
      result = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`${adapter}: the measuring worker exited with ${code}`)),
    );
  });
}

export const benchmark: Benchmark = {
  name: 'adapter-translation',
  title: `each CLI adapter's translator on its recordings, copied with fresh ids to ~${mib(TARGET_BYTES)}, vs split + JSON.parse; growth 1 MiB → ${mib(TARGET_BYTES)}; ${SHARED ? 'all in one isolate' : 'one isolate per adapter'}`,
  async run(log) {
    const targets: Target[] = [];
    const facts: string[] = [];
    const flags: string[] = [];
    for (const adapter of await recordedAdapters()) {
      if (ONLY && !ONLY.includes(adapter)) continue;
      const m = SHARED ? await measureTranslation(adapter, TARGET_BYTES) : await measureIsolated(adapter);
      for (const line of m.lines) log(line);
      targets.push(
        { label: `${adapter} translate/bare ratio (median)`, value: m.ratio, op: '>=', limit: TARGET_RATIO, unit: '' },
        {
          label: `${adapter} throughput ${mib(m.longBytes)} ÷ ${mib(m.shortBytes)} (median)`,
          value: m.growth,
          op: '>=',
          limit: TARGET_GROWTH,
          unit: '',
        },
        {
          label: `${adapter} events per fresh copy = one recording's (1 = yes)`,
          value: m.sameWork ? 1 : 0,
          op: '>=',
          limit: 1,
          unit: '',
          digits: 0,
        },
      );
      facts.push(
        `${adapter}: ${int(m.mibPerSecond)} MiB/s translated, ${fixed(m.eventsPer1000Lines, 0)} events per 1,000 lines`,
      );
      if (m.events === 0) flags.push(`${adapter}: its recordings translate to no events`);
    }
    return { targets, facts, flags };
  },
};
