import { Buffer } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import { processTranslator } from '../src/adapters/protocols/process/process-translator.ts';
import { CostTracker } from '../src/core/cost/cost-tracker.ts';
import { LineDecoder } from '../src/core/decode/line-decoder.ts';
import { parseRecord } from '../src/core/decode/parse-record.ts';
import type { AgentEvent } from '../src/core/events/index.ts';
import { Redactor } from '../src/core/redact/redactor.ts';
import { RecordPipeline } from '../src/core/run/record-pipeline.ts';
import { RunEmitter } from '../src/core/run/run-emitter.ts';
import { type Benchmark, collectGarbage, fixed, int, median, mib } from './bench-kit.ts';

const RECORDS = 200_000;
const CHUNK = 64 * 1024;
const ROUNDS = 7;
const TARGET_RATIO = 0.7;

/**
 * A Process-protocol stream: 70 % progress (every 20th with a cumulative cost), 15 % tool_call,
 * 15 % comment, with the lengths of real summaries, so redaction scans them as it would.
 */
function processStream(records: number): { bytes: Buffer; expectedEvents: number } {
  const lines: string[] = [];
  let expectedEvents = 0;
  for (let i = 0; i < records; i++) {
    const slot = i % 20;
    if (slot < 14) {
      const cost = slot === 0 ? { model: 'claude-sonnet-4', inputTokens: 1200 + i, outputTokens: 300 + i } : undefined;
      lines.push(JSON.stringify({ type: 'progress', summary: `Reading src/module-${i}.ts to find the parser`, cost }));
      expectedEvents += cost ? 2 : 1;
    } else if (slot < 17) {
      lines.push(
        JSON.stringify({ type: 'tool_call', id: `call_${i}`, tool: 'read_file', args: { path: `src/f${i}.ts` } }),
      );
      expectedEvents += 2;
    } else {
      lines.push(
        JSON.stringify({
          type: 'comment',
          text: `Found the cause of #${i}: the decoder drops a byte`,
          mentions: ['ci'],
        }),
      );
      expectedEvents += 1;
    }
  }
  return { bytes: Buffer.from(`${lines.join('\n')}\n`), expectedEvents };
}

function chunksOf(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

type Stage = (chunks: readonly Buffer[], bytes: Buffer) => number;

const runId = `run_${randomUUID()}`;

/** The real path of a live run: pipeline → RunEmitter (stamp, price, redact) → listener. */
function realEmitter(onEvent: (event: AgentEvent) => void, redact = true): RunEmitter {
  return new RunEmitter({
    runId,
    agent: 'process',
    debug: false,
    // As `startRun` builds it: one secret env value plus the token patterns.
    redactor: redact ? new Redactor(['sk-bench-not-a-real-secret-0123456789']) : new Redactor([], { patterns: false }),
    costs: new CostTracker({ costModel: 'claude-sonnet-4' }),
    onEvent,
  });
}

function pipelineStage(redact: boolean): Stage {
  return (chunks) => {
    let events = 0;
    let errors = 0;
    const emitter = realEmitter((event) => {
      events++;
      if (event.type === 'error') errors++;
    }, redact);
    const pipeline = new RecordPipeline({
      translator: processTranslator,
      protocol: 'json-lines',
      debug: false,
      emit: (draft, raw) => emitter.emit(draft, raw),
    });
    for (const chunk of chunks) pipeline.pushStdout(chunk);
    pipeline.end();
    pipeline.finish({ exitCode: 0, signal: null });
    return errors > 0 ? -errors : events;
  };
}

const real: Stage = pipelineStage(true);

/** The measured path: bytes → lines → records → the adapter's translator → event drafts. */
const decodeTranslate: Stage = (chunks) => {
  let n = 0;
  const pipeline = new RecordPipeline({
    translator: processTranslator,
    protocol: 'json-lines',
    debug: false,
    emit: () => n++,
  });
  for (const chunk of chunks) pipeline.pushStdout(chunk);
  pipeline.end();
  return n;
};

/** The floor: decode the whole text once, split, parse. */
const bare: Stage = (_chunks, bytes) => {
  let records = 0;
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line === '') continue;
    if ((JSON.parse(line) as { type: string }).type) records++;
  }
  return records;
};

/** Cumulative stages of the real path, to show where its time goes. */
const stages: Record<string, Stage> = {
  'LineDecoder (bytes → lines)': (chunks) => {
    let n = 0;
    const decoder = new LineDecoder({ onLine: () => n++ });
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return n;
  },
  '+ parseRecord (JSON.parse)': (chunks) => {
    let n = 0;
    const decoder = new LineDecoder({ onLine: (line) => parseRecord(line, 'json-lines').kind === 'json' && n++ });
    for (const chunk of chunks) decoder.push(chunk);
    decoder.end();
    return n;
  },
  '+ translator (RecordPipeline, no-op emit)': decodeTranslate,
  '+ RunEmitter without redaction': pipelineStage(false),
  '+ redaction (the real path)': real,
};

/** Times one pass; the garbage of earlier passes is collected first, so each pays only for its own. */
function time(stage: Stage, chunks: readonly Buffer[], bytes: Buffer): { ms: number; count: number } {
  collectGarbage();
  const start = performance.now();
  const count = stage(chunks, bytes);
  return { ms: performance.now() - start, count };
}

export const benchmark: Benchmark = {
  name: 'decode-throughput',
  title: `${int(RECORDS)} Process-protocol lines in 64 KiB chunks: decode + translate (RecordPipeline) vs split + JSON.parse`,
  async run(log) {
    const { bytes, expectedEvents } = processStream(RECORDS);
    const chunks = chunksOf(bytes, CHUNK);
    log(`input: ${int(RECORDS)} records, ${mib(bytes.length)}, ${chunks.length} chunks; ${int(expectedEvents)} events`);
    const flags: string[] = [];

    // Warm both paths up (JIT), then interleave, alternating which goes first.
    time(decodeTranslate, chunks, bytes);
    time(bare, chunks, bytes);
    const realMs: number[] = [];
    const bareMs: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
      let a = { ms: 0, count: 0 };
      let b = { ms: 0, count: 0 };
      for (const which of order) {
        if (which === 'a') a = time(decodeTranslate, chunks, bytes);
        else b = time(bare, chunks, bytes);
      }
      if (a.count !== expectedEvents)
        flags.push(`round ${round}: pipeline gave ${a.count} events, ${expectedEvents} expected`);
      if (b.count !== RECORDS) flags.push(`round ${round}: bare loop parsed ${b.count} records`);
      realMs.push(a.ms);
      bareMs.push(b.ms);
      ratios.push(b.ms / a.ms);
    }
    const rate = (msList: number[], n: number) => n / (median(msList) / 1000);
    const ratio = median(ratios);
    log(`rounds: ${ROUNDS} (interleaved, after one warm-up of each)`);
    log(
      `(a) decode + translate: ${int(rate(realMs, RECORDS))} records/s = ${int(rate(realMs, expectedEvents))} events/s  (median ${fixed(median(realMs), 1)} ms)`,
    );
    log(`(b) bare:     ${int(rate(bareMs, RECORDS))} records/s  (median ${fixed(median(bareMs), 1)} ms)`);
    log(`ratio a/b per round (records/s): ${ratios.map((r) => fixed(r)).join(' ')}  → median ${fixed(ratio)}`);

    // Where the time goes: each stage adds one step of the real path.
    const stageMs: Record<string, number[]> = Object.fromEntries(Object.keys(stages).map((label) => [label, []]));
    for (let round = 0; round < 5; round++) {
      for (const [label, stage] of Object.entries(stages)) stageMs[label]?.push(time(stage, chunks, bytes).ms);
    }
    log('stage breakdown (median of 5, cumulative; Δ = cost of the added step):');
    let previous = 0;
    for (const [label, list] of Object.entries(stageMs)) {
      const m = median(list);
      const perRecord = (m * 1e6) / RECORDS;
      log(
        `  ${label.padEnd(44)} ${fixed(m, 1).padStart(7)} ms  Δ ${fixed(m - previous, 1).padStart(6)} ms  (${fixed(perRecord, 0)} ns/record)`,
      );
      previous = m;
    }

    const fullMs = median(stageMs['+ redaction (the real path)'] ?? []);
    const fullRatio = median(bareMs) / fullMs;
    log(`whole event path (stamp, price, redact) vs bare: ${fixed(fullRatio)} — no target; see pipeline-flood`);
    return {
      targets: [
        {
          label: 'decode+translate/bare throughput ratio (median)',
          value: ratio,
          op: '>=',
          limit: TARGET_RATIO,
          unit: '',
        },
      ],
      facts: [
        `decode+translate ${int(rate(realMs, RECORDS))} records/s (${int(rate(realMs, expectedEvents))} events/s), bare ${int(rate(bareMs, RECORDS))} records/s`,
        `whole event path incl. RunEmitter and redaction: ${fixed(fullRatio)} of bare`,
      ],
      flags,
    };
  },
};
