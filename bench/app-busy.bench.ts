/**
 * The app when busy, against the fake GitHub with 100 ms per call (`BENCH_GITHUB_LATENCY_MS`): a
 * burst of ordinary comments (no mention) on many issues, and right behind it one mention. Measured:
 * how long the mention waits for its 👀 reaction (from its webhook's acknowledgement), and the webhook
 * acknowledgement p99 of the whole burst. The benchmark's HTTP client is warmed first (on a server of
 * its own), so the burst's 20 connections arrive at once, as from GitHub's long-running senders.
 * Run for the app before the dispatcher changes (a git worktree at `AGENT_MUX_BENCH_BEFORE`, e.g.
 * `git worktree add /tmp/before <commit>` with node_modules symlinked) and the app of this tree,
 * one after the other in the same run.
 *
 *   node bench/app-busy.bench.ts            (AGENT_MUX_BENCH_BEFORE=/tmp/before to compare)
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds } from './app-cpu.ts';
import { BENCH_SECRET, startAppProcess } from './app-process.ts';
import { createWebhookSender, warmUpClient } from './app-webhook-sender.ts';
import { startBenchWorld } from './app-world.ts';
import { percentile } from './bench-kit.ts';
import { treesToCompare } from './trees-to-compare.ts';

const LATENCY_MS = 100;
const COMMENTS = 200;
const ISSUES = 50;
const SEND_CONCURRENCY = 20;
const EYES_LIMIT_MS = 3_000;
const ACK_P99_LIMIT_MS = 50;
const CONFIG = `
agents:
  demo:
    adapter: demo
`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Figures {
  eyesMs: number;
  ackP99Ms: number;
  requestsPerComment: number;
  /** The app's CPU time from the burst's first send to its last acknowledgement, per webhook (10 ms ticks). */
  cpuMsPerWebhook: number;
}

async function measure(tree: string): Promise<Figures> {
  process.env.BENCH_GITHUB_LATENCY_MS = String(LATENCY_MS);
  const world = await startBenchWorld(CONFIG);
  const dir = await mkdtemp(join(tmpdir(), 'agent-mux-bench-busy-'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = await startAppProcess({
    argv: [join(tree, 'node_modules/probot/bin/probot.js'), 'run', join(tree, 'src/app/index.ts')],
    githubUrl: world.url,
    gitBase: world.gitBase,
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    dir,
    env: { AGENT_MUX_WORKERS: '0', AGENT_MUX_GITHUB_THROTTLE: 'off', LOG_LEVEL: 'warn' },
  });
  const sender = createWebhookSender(app.webhookUrl, BENCH_SECRET);
  try {
    // Ready (store open, slug read, loops started), then a second for what start-up left running.
    await app.ready();
    await sleep(1000);
    const before = (await world.stats()).requests;
    const comments = await world.mentions(COMMENTS, ISSUES, 'Thanks, this looks good to me.');
    const [mention] = await world.mentions(1, ISSUES + 1, '@agent demo: fix the typo');
    // A warm sender, as GitHub's are: it opens the burst's 20 connections within ~3 ms.
    await warmUpClient([...comments, ...comments], SEND_CONCURRENCY);
    const acks: number[] = [];
    const cpuBefore = cpuSeconds(app.pid) ?? Number.NaN;
    let next = 0;
    await Promise.all(
      Array.from({ length: SEND_CONCURRENCY }, async () => {
        while (next < comments.length) {
          const payload = comments[next++];
          acks.push((await sender.send('issue_comment', payload)).ms);
        }
      }),
    );
    const cpuMsPerWebhook = (((cpuSeconds(app.pid) ?? Number.NaN) - cpuBefore) * 1000) / COMMENTS;
    const sent = performance.now();
    acks.push((await sender.send('issue_comment', mention)).ms);
    const deadline = sent + 180_000;
    while ((await world.stats()).reactions === 0 && performance.now() < deadline) await sleep(20);
    const eyesMs = performance.now() - sent;
    await sleep(1_000);
    const requests = (await world.stats()).requests - before;
    return {
      eyesMs,
      ackP99Ms: percentile(acks, 99),
      requestsPerComment: requests / (COMMENTS + 1),
      cpuMsPerWebhook,
    };
  } finally {
    sender.close();
    await app.stop();
    await world.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const results: [string, Figures][] = [];
for (const [label, tree] of treesToCompare()) results.push([label, await measure(tree)]);

console.log(`a mention behind ${COMMENTS} ordinary comments on ${ISSUES} issues, GitHub ${LATENCY_MS} ms per call`);
console.log('tree     👀 after (s)   ack p99 (ms)   GitHub calls per comment   app CPU per webhook (ms)');
for (const [label, f] of results) {
  console.log(
    `${label.padEnd(8)} ${(f.eyesMs / 1000).toFixed(2).padStart(12)}   ${f.ackP99Ms.toFixed(1).padStart(12)}   ${f.requestsPerComment.toFixed(2).padStart(10)}   ${f.cpuMsPerWebhook.toFixed(2).padStart(22)}`,
  );
}
const after = results.at(-1)?.[1];
if (after !== undefined) {
  console.log(`target: 👀 ≤ ${EYES_LIMIT_MS / 1000} s: ${after.eyesMs <= EYES_LIMIT_MS ? 'met' : 'NOT met'}`);
  console.log(`target: ack p99 ≤ ${ACK_P99_LIMIT_MS} ms: ${after.ackP99Ms <= ACK_P99_LIMIT_MS ? 'met' : 'NOT met'}`);
}
