import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSeconds } from './app-cpu.ts';
import { createBenchDatabase } from './app-database.ts';
import { type AppProcess, BENCH_SECRET, PROBOT_RUN, PROBOT_RUN_UNTHROTTLED, startAppProcess } from './app-process.ts';
import { createWebhookSender, sendOpenLoop } from './app-webhook-sender.ts';
import { type BenchWorld, startBenchWorld } from './app-world.ts';
import { type Benchmark, fixed, int, percentile, type Target } from './bench-kit.ts';

const RATE = 100;
const SECONDS = 30;
const WARM_UP = 20;
const LATENCY_LIMIT_MS = 50;
/** Mentions per throughput measurement, each on an issue of its own. */
const BATCH = 60;
const WORKERS = 2;
const RATIO_LIMIT = 1.7;
const BATCH_TIMEOUT_MS = 120_000;

/** The demo agent (about 2 s of scripted steps) with every tool allowed: runs end without an approval, in a pull request. */
const CONFIG = `
agents:
  demo:
    adapter: demo
tools:
  policy:
    default: allow
`;
const MENTION = '@agent fix the typo in the README';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** CPU seconds used by a set of processes between `start()` and `stop()`, and by this process. */
function cpuMeter(pids: () => (number | undefined)[]) {
  const read = () => pids().map((pid) => cpuSeconds(pid) ?? 0);
  const before = read();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  return () => {
    const after = read();
    const own = process.cpuUsage(ownBefore);
    const wall = (performance.now() - started) / 1000;
    return {
      /** Cores busy on average, per process (same order as `pids`). */
      cores: after.map((value, i) => (value - (before[i] ?? 0)) / wall),
      ownCores: (own.user + own.system) / 1e6 / wall,
    };
  };
}

interface Workspace {
  world: BenchWorld;
  dir: string;
  privateKey: string;
  apps: AppProcess[];
  close(): Promise<void>;
}

async function workspace(): Promise<Workspace> {
  const world = await startBenchWorld(CONFIG);
  const dir = await mkdtemp(join(tmpdir(), 'agent-mux-bench-app-'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const apps: AppProcess[] = [];
  return {
    world,
    dir,
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    apps,
    async close() {
      await Promise.all(apps.map((app) => app.stop()));
      await world.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * 1. The app (SQLite, workers on): signed mentions at RATE/s for SECONDS s, open loop. `argv` is
 * `PROBOT_RUN` (as deployed) or `PROBOT_RUN_UNTHROTTLED` (the dispatcher and workers keep up with
 * the mentions instead of waiting on Probot's write throttle: the busiest background).
 */
async function acknowledgement(log: (line: string) => void, argv: readonly string[], label: string) {
  const ws = await workspace();
  try {
    const payloads = await ws.world.mentions(WARM_UP + RATE * SECONDS, 100, MENTION);
    const app = await startAppProcess({
      argv,
      githubUrl: ws.world.url,
      gitBase: ws.world.gitBase,
      privateKey: ws.privateKey,
      dir: ws.dir,
      env: { AGENT_MUX_WORKERS: String(WORKERS) },
    });
    ws.apps.push(app);
    const sender = createWebhookSender(app.webhookUrl, BENCH_SECRET);
    for (const payload of payloads.slice(0, WARM_UP)) await sender.send('issue_comment', payload);
    const before = await ws.world.stats();
    const cpu = cpuMeter(() => [app.pid, ws.world.pid]);
    const result = await sendOpenLoop({
      sender,
      name: 'issue_comment',
      payloads: payloads.slice(WARM_UP),
      perSecond: RATE,
    });
    const used = cpu();
    const after = await ws.world.stats();
    sender.close();
    const ok = result.acknowledgements.filter((a) => a.status === 200).map((a) => a.ms);
    const errors = result.acknowledgements.length - ok.length;
    const firstError = result.acknowledgements.find((a) => a.status !== 200);
    const seconds = result.elapsedMs / 1000;
    const p50 = percentile(ok, 50);
    const p99 = percentile(ok, 99);
    const max = Math.max(...ok);
    const completed = after.checkRunsCompleted - before.checkRunsCompleted;
    const dispatched = after.reactions - before.reactions;
    const writesPerSecond = (after.writes - before.writes) / seconds;
    log(
      `acknowledgement, ${label} + SQLite, ${WORKERS} workers: ${int(result.acknowledgements.length)} signed mentions at ${RATE}/s open loop over ${fixed(seconds, 1)} s (after ${WARM_UP} warm-up)`,
    );
    log(
      `  p50 ${fixed(p50, 2)} ms, p99 ${fixed(p99, 2)} ms, max ${fixed(max, 2)} ms; errors ${errors}${firstError ? ` (first: ${firstError.status} ${firstError.error ?? ''})` : ''}; sender lag max ${fixed(result.maxLagMs, 1)} ms`,
    );
    log(
      `  meanwhile: ${dispatched} mentions dispatched, ${completed} runs finished; the app made ${fixed((after.requests - before.requests) / seconds, 1)} GitHub requests/s (${fixed(writesPerSecond, 2)} writes/s); CPU: app ${fixed(used.cores[0] ?? 0, 2)}, fake GitHub ${fixed(used.cores[1] ?? 0, 2)}, sender ${fixed(used.ownCores, 2)} cores`,
    );
    return { p50, p99, max, errors, completed, dispatched, writesPerSecond, violations: after.violations };
  } finally {
    await ws.close();
  }
}

/** 2. BATCH mentions processed by `replicas` app processes sharing one fresh PostgreSQL database. */
async function batch(replicas: number, log: (line: string) => void) {
  const ws = await workspace();
  const db = await createBenchDatabase();
  try {
    const payloads = await ws.world.mentions(BATCH, BATCH, MENTION);
    for (let i = 0; i < replicas; i++) {
      ws.apps.push(
        await startAppProcess({
          argv: PROBOT_RUN_UNTHROTTLED,
          githubUrl: ws.world.url,
          gitBase: ws.world.gitBase,
          privateKey: ws.privateKey,
          dir: join(ws.dir, `replica-${i}`),
          env: {
            DATABASE_URL: db.url,
            AGENT_MUX_WORKERS: String(WORKERS),
            AGENT_MUX_MAX_RUNS_PER_REPO: '16',
            AGENT_MUX_MAX_RUNS_PER_ADAPTER: '16',
          },
        }),
      );
    }
    const senders = ws.apps.map((app) => createWebhookSender(app.webhookUrl, BENCH_SECRET));
    const serverStarted = await db.serverStartedAt();
    const cpu = cpuMeter(() => [...ws.apps.map((app) => app.pid), ws.world.pid]);
    const started = performance.now();
    const acks = await Promise.all(
      payloads.map((payload, i) => senders[i % senders.length]!.send('issue_comment', payload)),
    );
    for (const sender of senders) sender.close();
    let done = await db.finished();
    while (done.finished < BATCH && performance.now() - started < BATCH_TIMEOUT_MS) {
      await sleep(50);
      done = await db.finished();
    }
    const timedOut = done.finished < BATCH;
    if (timedOut) log(`  only ${done.finished} of ${BATCH} runs finished in ${BATCH_TIMEOUT_MS / 1000} s`);
    const seconds = (performance.now() - started) / 1000;
    const used = cpu();
    const stats = await ws.world.stats();
    const runsPerSecond = done.finished / seconds;
    const restarted = (await db.serverStartedAt().catch(() => '')) !== serverStarted;
    const appCores = used.cores.slice(0, replicas);
    const load = loadavg()[0] ?? 0;
    log(
      `${replicas} replica(s) × ${WORKERS} workers, PostgreSQL: ${done.finished} runs (${done.succeeded} succeeded) in ${fixed(seconds, 1)} s = ${fixed(runsPerSecond, 2)} runs/s`,
    );
    log(
      `  CPU: app ${appCores.map((c) => fixed(c, 2)).join(' + ')}, fake GitHub ${fixed(used.cores[replicas] ?? 0, 2)}, this process ${fixed(used.ownCores, 2)} cores (of ${availableParallelism()}, load average ${fixed(load, 1)}); fake served ${fixed(stats.requests / seconds, 1)} requests/s`,
    );
    if (restarted)
      log('  PostgreSQL restarted during this measurement (another process): runs stalled until their leases expired');
    return {
      timedOut,
      restarted,
      runsPerSecond,
      seconds,
      finished: done.finished,
      succeeded: done.succeeded,
      rejected: acks.filter((a) => a.status !== 200).length,
      violations: stats.violations,
      busyCores: appCores.reduce((a, b) => a + b, 0) + (used.cores[replicas] ?? 0) + used.ownCores,
      fakeCores: used.cores[replicas] ?? 0,
      load,
    };
  } finally {
    await ws.close();
    await db.drop();
  }
}

/**
 * The Probot app as deployed: how fast `probot run` acknowledges webhooks while its workers run
 * agents, and how the run throughput of two replicas on one PostgreSQL database compares with one.
 */
export const benchmark: Benchmark = {
  name: 'app-webhooks',
  title: `probot run: webhook acknowledgement at ${RATE}/s for ${SECONDS} s (SQLite); runs/s of two replicas vs one (PostgreSQL, ${BATCH} mentions)`,
  async run(log) {
    const ack = await acknowledgement(log, PROBOT_RUN, 'probot run');
    const busy = await acknowledgement(log, PROBOT_RUN_UNTHROTTLED, 'probot run() with the write throttle off');
    // A PostgreSQL restart by someone else's test stalls runs until their leases expire: measure again once.
    const measure = async (replicas: number) => {
      const first = await batch(replicas, log);
      return first.restarted ? { ...(await batch(replicas, log)), retried: true } : { ...first, retried: false };
    };
    const one = await measure(1);
    const two = await measure(2);
    const ratio = two.runsPerSecond / one.runsPerSecond;
    log(
      `two replicas / one: ${fixed(ratio, 2)}× (limit ${RATIO_LIMIT}×); ${WORKERS} vs ${2 * WORKERS} workers, the demo agent spends ~2 s per run waiting`,
    );

    const flags: string[] = [];
    if (ack.errors > 0) flags.push(`${ack.errors} webhook deliveries not answered 200`);
    if (one.rejected + two.rejected > 0) flags.push(`${one.rejected + two.rejected} batch deliveries not answered 200`);
    if (one.succeeded < one.finished || two.succeeded < two.finished) {
      flags.push(
        `runs that did not succeed: ${one.finished - one.succeeded} (one), ${two.finished - two.succeeded} (two)`,
      );
    }
    if (busy.errors > 0) flags.push(`${busy.errors} webhook deliveries (throttle off) not answered 200`);
    const violations = ack.violations + busy.violations + one.violations + two.violations;
    if (violations > 0) flags.push(`the fake GitHub recorded ${violations} violations`);
    if (ack.dispatched < 0.1 * RATE * SECONDS) {
      flags.push(
        `probot run's default Octokit throttle (one write/s per process, shared by the dispatcher's eyes reactions and the runs; ${fixed(ack.writesPerSecond, 2)} writes/s seen): ${ack.dispatched} of ${RATE * SECONDS} mentions dispatched and ${ack.completed} runs finished in ${SECONDS} s (the throughput runs turn it off)`,
      );
    }
    if (two.busyCores > 0.8 * availableParallelism()) {
      flags.push(`two replicas kept ${fixed(two.busyCores, 2)} of ${availableParallelism()} cores busy: CPU may limit`);
    }
    if (one.timedOut || two.timedOut) flags.push(`not all ${BATCH} runs finished in ${BATCH_TIMEOUT_MS / 1000} s`);
    if (one.retried || two.retried) flags.push('PostgreSQL restarted during a throughput measurement; measured again');
    if (one.restarted || two.restarted)
      flags.push('PostgreSQL restarted again during the repeat: the ratio is unreliable');
    const load = Math.max(one.load, two.load);
    if (load > availableParallelism()) {
      flags.push(
        `load average ${fixed(load, 1)} on ${availableParallelism()} cores: other processes share the machine`,
      );
    }
    if (busy.dispatched < 0.9 * RATE * SECONDS) {
      flags.push(
        `with the throttle off one dispatcher handled ${fixed(busy.dispatched / SECONDS, 1)} of ${RATE} mentions/s (one event at a time, a few GitHub requests each)`,
      );
    }
    if (two.fakeCores > 0.8) flags.push(`the fake GitHub was ${fixed(two.fakeCores * 100, 0)}% busy: it may limit`);

    const targets: Target[] = [
      { label: 'app webhook acknowledgement p99', value: ack.p99, op: '<=', limit: LATENCY_LIMIT_MS, unit: ' ms' },
      {
        label: 'app webhook acknowledgement p99, busy workers',
        value: busy.p99,
        op: '<=',
        limit: LATENCY_LIMIT_MS,
        unit: ' ms',
      },
      { label: 'app two replicas vs one (runs/s)', value: ratio, op: '>=', limit: RATIO_LIMIT, unit: '×' },
    ];
    return {
      targets,
      facts: [
        `webhook ack p50 ${fixed(ack.p50, 2)} ms, p99 ${fixed(ack.p99, 2)} ms, max ${fixed(ack.max, 1)} ms at ${RATE}/s`,
        `webhook ack with busy workers: p99 ${fixed(busy.p99, 2)} ms, max ${fixed(busy.max, 1)} ms, ${busy.completed} runs finished meanwhile`,
        `runs/s: one replica ${fixed(one.runsPerSecond, 2)}, two ${fixed(two.runsPerSecond, 2)} (${fixed(ratio, 2)}×)`,
      ],
      flags,
    };
  },
};
