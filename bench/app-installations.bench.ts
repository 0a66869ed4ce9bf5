/**
 * The app with many installations busy at once, as deployed (`probot run`, Probot's write throttle
 * on, SQLite), against the fake GitHub with 100 ms per call (`BENCH_GITHUB_LATENCY_MS`).
 *
 * 20 installations (one repository each) get 5 mentions each, one every 6 s per installation and
 * the installations 300 ms apart, so that from about 30 s on 100 runs are in flight, 5 per
 * installation. Each run is a Process-protocol agent that prints one progress event every 500 ms for
 * 60 s, so its check run and tracking comment always have news. Ordinary comments (no mention) arrive
 * at 10 per second throughout. Measured, in one run for each tree:
 *
 * - each mention's 👀: from its webhook's send to GitHub receiving the reaction (target ≤ 3 s, all of them);
 * - each check run's longest time without an update while it ran (target ≤ 30 s, all of them);
 * - the webhook acknowledgement p99 over every delivery (target ≤ 50 ms).
 *
 *   node bench/app-installations.bench.ts   (AGENT_MUX_BENCH_BEFORE=/tmp/before compares a worktree
 *                                            of another commit, node_modules symlinked, in the same run)
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_SECRET, startAppProcess } from './app-process.ts';
import { createWebhookSender } from './app-webhook-sender.ts';
import { startBenchWorld } from './app-world.ts';
import { percentile } from './bench-kit.ts';
import { treesToCompare } from './trees-to-compare.ts';

const LATENCY_MS = 100;
const INSTALLATIONS = 20;
const RUNS_PER_INSTALLATION = 5;
/** Between two mentions of one installation. */
const MENTION_EVERY_MS = 6_000;
/** Between the first mentions of two installations. */
const INSTALLATION_OFFSET_MS = 300;
/** Each run: one progress event every 500 ms for 60 s. */
const AGENT_EVENTS = 120;
const AGENT_EVENT_EVERY_MS = 500;
const CHATTER_PER_SECOND = 10;
const EYES_LIMIT_MS = 3_000;
const STALENESS_LIMIT_MS = 30_000;
const ACK_P99_LIMIT_MS = 50;
const TIMEOUT_MS = 300_000;

const agent = fileURLToPath(new URL('../test/fixtures/bin/timed-progress.mjs', import.meta.url));
const CONFIG = `
agents:
  ticker:
    adapter: process
    options:
      binary: ${JSON.stringify(process.execPath)}
      args: ${JSON.stringify([agent, String(AGENT_EVENTS), '1', String(AGENT_EVENT_EVERY_MS)])}
`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Figures {
  eyesMaxMs: number;
  eyesP95Ms: number;
  eyesMissing: number;
  stalenessMaxMs: number;
  stalenessP95Ms: number;
  checkRunsCompleted: number;
  ackP99Ms: number;
  ackMaxMs: number;
  acks: number;
  failedAcks: number;
}

async function measure(tree: string): Promise<Figures> {
  process.env.BENCH_GITHUB_LATENCY_MS = String(LATENCY_MS);
  const world = await startBenchWorld(CONFIG);
  await world.installations(INSTALLATIONS);
  const dir = await mkdtemp(join(tmpdir(), 'agent-mux-bench-installations-'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const runs = INSTALLATIONS * RUNS_PER_INSTALLATION;
  const app = await startAppProcess({
    argv: [join(tree, 'node_modules/probot/bin/probot.js'), 'run', join(tree, 'src/app/index.ts')],
    githubUrl: world.url,
    gitBase: world.gitBase,
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    dir,
    env: {
      AGENT_MUX_WORKERS: String(runs),
      AGENT_MUX_MAX_RUNS_PER_REPO: String(RUNS_PER_INSTALLATION),
      AGENT_MUX_MAX_RUNS_PER_ADAPTER: String(runs),
      AGENT_MUX_FENCE: 'off',
      LOG_LEVEL: 'warn',
    },
  });
  const sender = createWebhookSender(app.webhookUrl, BENCH_SECRET);
  try {
    // Ready (store open, slug read, loops started), then a second for what start-up left running.
    await app.ready();
    await sleep(1000);
    // Every payload made up front: its comment exists on the fake before its webhook leaves.
    const schedule: { at: number; payload: Record<string, unknown>; mention: boolean }[] = [];
    for (let i = 1; i <= INSTALLATIONS; i++) {
      const mentions = await world.mentions(RUNS_PER_INSTALLATION, RUNS_PER_INSTALLATION, '@agent ticker: tick', i);
      for (const [j, payload] of mentions.entries()) {
        schedule.push({ at: j * MENTION_EVERY_MS + (i - 1) * INSTALLATION_OFFSET_MS, payload, mention: true });
      }
    }
    const windowMs = (RUNS_PER_INSTALLATION - 1) * MENTION_EVERY_MS + AGENT_EVENTS * AGENT_EVENT_EVERY_MS;
    const chatter = Math.round((windowMs / 1000) * CHATTER_PER_SECOND);
    for (let k = 0; k < chatter; k++) {
      const installation = (k % INSTALLATIONS) + 1;
      const [payload] = await world.mentions(1, RUNS_PER_INSTALLATION, 'Thanks, looks good.', installation);
      if (payload) schedule.push({ at: (k * 1000) / CHATTER_PER_SECOND, payload, mention: false });
    }
    schedule.sort((a, b) => a.at - b.at);

    const sentAt = new Map<number, number>();
    const acks: number[] = [];
    let failedAcks = 0;
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (const item of schedule) {
      const wait = start + item.at - performance.now();
      if (wait > 0) await sleep(wait);
      const commentId = (item.payload.comment as { id: number }).id;
      if (item.mention) sentAt.set(commentId, Date.now());
      inFlight.push(
        sender.send('issue_comment', item.payload).then((ack) => {
          acks.push(ack.ms);
          if (ack.status < 200 || ack.status >= 300) failedAcks++;
        }),
      );
    }
    await Promise.all(inFlight);
    const deadline = performance.now() + TIMEOUT_MS;
    let timeline = await world.timeline();
    while (timeline.checkRuns.filter((run) => run.completed).length < runs && performance.now() < deadline) {
      await sleep(1000);
      timeline = await world.timeline();
    }

    const reacted = new Map(timeline.reactions.map((r) => [r.commentId, r.at]));
    const eyes: number[] = [];
    let eyesMissing = 0;
    for (const [commentId, at] of sentAt) {
      const seen = reacted.get(commentId);
      if (seen === undefined) eyesMissing++;
      else eyes.push(seen - at);
    }
    const staleness = timeline.checkRuns.map((run) => {
      let worst = 0;
      for (let k = 1; k < run.writes.length; k++) worst = Math.max(worst, run.writes[k]! - run.writes[k - 1]!);
      return worst;
    });
    return {
      eyesMaxMs: Math.max(0, ...eyes),
      eyesP95Ms: percentile(eyes, 95),
      eyesMissing,
      stalenessMaxMs: Math.max(0, ...staleness),
      stalenessP95Ms: percentile(staleness, 95),
      checkRunsCompleted: timeline.checkRuns.filter((run) => run.completed).length,
      ackP99Ms: percentile(acks, 99),
      ackMaxMs: Math.max(0, ...acks),
      acks: acks.length,
      failedAcks,
    };
  } finally {
    sender.close();
    await app.stop(15_000);
    await world.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const results: [string, Figures][] = [];
for (const [label, tree] of treesToCompare()) results.push([label, await measure(tree)]);

const s = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `${INSTALLATIONS} installations × ${RUNS_PER_INSTALLATION} runs of ${s(AGENT_EVENTS * AGENT_EVENT_EVERY_MS)} s, ${CHATTER_PER_SECOND} other comments/s, GitHub ${LATENCY_MS} ms per call, Probot's write throttle on`,
);
console.log(
  'tree     👀 max (s)  👀 p95 (s)  no 👀  check run stale max (s)  p95 (s)  completed  ack p99 (ms)  ack max (ms)',
);
for (const [label, f] of results) {
  console.log(
    `${label.padEnd(8)} ${s(f.eyesMaxMs).padStart(9)}  ${s(f.eyesP95Ms).padStart(10)}  ${String(f.eyesMissing).padStart(5)}  ${s(f.stalenessMaxMs).padStart(22)}  ${s(f.stalenessP95Ms).padStart(7)}  ${String(f.checkRunsCompleted).padStart(9)}  ${f.ackP99Ms.toFixed(1).padStart(12)}  ${f.ackMaxMs.toFixed(1).padStart(12)}   (${f.acks} deliveries, ${f.failedAcks} not acknowledged)`,
  );
}
const after = results.at(-1)?.[1];
if (after !== undefined) {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `target: every 👀 ≤ ${s(EYES_LIMIT_MS)} s: ${met(after.eyesMissing === 0 && after.eyesMaxMs <= EYES_LIMIT_MS)}`,
  );
  console.log(
    `target: every check run updated at least every ${s(STALENESS_LIMIT_MS)} s: ${met(after.checkRunsCompleted === INSTALLATIONS * RUNS_PER_INSTALLATION && after.stalenessMaxMs <= STALENESS_LIMIT_MS)}`,
  );
  console.log(`target: ack p99 ≤ ${ACK_P99_LIMIT_MS} ms: ${met(after.ackP99Ms <= ACK_P99_LIMIT_MS)}`);
}
