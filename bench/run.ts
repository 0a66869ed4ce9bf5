import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BenchReport, passes, type Target } from './bench-kit.ts';

/** Every benchmark, in the order `npm run bench` runs them: `bench/<name>.bench.ts`. */
const all = [
  'decode-throughput',
  'pipeline-flood',
  'tool-roundtrip',
  'adapter-translation',
  'auth-detection',
  'remote-pool',
  'github-coalescing',
  'action-cold-start',
  'agent-first-request',
  'app-webhooks',
  'steering-latency',
  'app-steering-latency',
] as const;
const TIMEOUT_MS = 600_000;
/** Benchmarks that need longer (one pair of real CLI starts per agent and run). */
const TIMEOUTS_MS: Partial<Record<(typeof all)[number], number>> = { 'agent-first-request': 1_200_000 };

const runOne = fileURLToPath(new URL('./run-one.ts', import.meta.url));

/** Runs one benchmark in its own `node --expose-gc` process; resolves with its report (undefined if it died). */
function runIsolated(name: (typeof all)[number]): Promise<BenchReport | undefined> {
  const timeoutMs = TIMEOUTS_MS[name] ?? TIMEOUT_MS;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', runOne, name], {
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    });
    const parts: Buffer[] = [];
    child.stdio[3]?.on('data', (chunk: Buffer) => parts.push(chunk));
    const timer = setTimeout(() => {
      process.stdout.write(`  TIMEOUT after ${timeoutMs / 1000} s\n`);
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(parts).toString('utf8');
      try {
        resolve(text ? (JSON.parse(text) as BenchReport) : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

const format = (target: Target, value: number) => `${value.toFixed(target.digits ?? 2)}${target.unit}`;

async function main(): Promise<number> {
  const requested = process.argv.slice(2);
  const unknown = requested.filter((name) => !(all as readonly string[]).includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')}; known: ${all.join(', ')}\n`);
    return 2;
  }
  const names = (requested.length > 0 ? requested : [...all]) as (typeof all)[number][];
  process.stdout.write(`node ${process.version}, ${names.length} benchmark(s); ratios are measured within one run\n`);
  const started = performance.now();
  const results: { name: string; report: BenchReport | undefined }[] = [];
  for (const name of names) results.push({ name, report: await runIsolated(name) });

  const lines: string[] = [];
  let failed = 0;
  for (const { name, report } of results) {
    if (!report) {
      failed++;
      lines.push(`FAIL  ${name}: no report (crashed or timed out)`);
      continue;
    }
    for (const target of report.targets) {
      const ok = passes(target);
      if (!ok) failed++;
      lines.push(
        `${ok ? 'PASS' : 'FAIL'}  ${name}: ${target.label} = ${format(target, target.value)} (target ${target.op} ${format(target, target.limit)})`,
      );
    }
    if (report.flags.some((flag) => flag.startsWith('crashed'))) failed++;
    for (const fact of report.facts) lines.push(`      ${name}: ${fact}`);
    for (const flag of report.flags) lines.push(`FLAG  ${name}: ${flag}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(`\n== summary (${seconds} s)\n${lines.join('\n')}\n`);
  process.stdout.write(failed > 0 ? `${failed} target(s) failed\n` : 'all targets met\n');
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
