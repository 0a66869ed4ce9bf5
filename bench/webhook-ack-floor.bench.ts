/**
 * The floor under the app's burst figure: the same burst as `app-busy.bench.ts` (200 signed
 * `issue_comment` webhooks, 20 concurrent senders over keep-alive connections) sent to a bare Node
 * server that only reads the body, checks the signature and parses the JSON (`node:http` +
 * `node:crypto`; no Probot, no store), fresh, then warmed by 50 sequential deliveries first. What
 * its acknowledgement p99 is on this machine bounds what any app can reach here.
 *
 * Two more rows explain the burst's tail. Node (libuv 1.52) accepts one new connection per turn of
 * the event loop, and each turn also serves every request already readable on the connections it
 * accepted before, so the 20th connection of a burst waits for about 19 · 20 / 2 deliveries' work.
 * `+0.4 ms` adds a busy 0.4 ms per delivery (about the app's CPU per webhook, `app-busy`) to the
 * bare server; `8 listeners` is that server listening on 8 `SO_REUSEPORT` sockets (`reusePort`)
 * that feed one HTTP server, so a turn can accept up to 8 connections: what owning the listening
 * socket would buy, which `probot run` does not allow an app; `one per turn` is that server working at
 * most one delivery per turn of the event loop, as the app does (`src/app/delivery-turns.ts`). The
 * sender is warmed first, so the burst's 20 connections arrive within a few milliseconds.
 *
 *   node bench/webhook-ack-floor.bench.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { BENCH_SECRET } from './app-process.ts';
import { createWebhookSender, warmUpClient } from './app-webhook-sender.ts';
import { startBenchWorld } from './app-world.ts';
import { percentile } from './bench-kit.ts';

const COMMENTS = 200;
const ISSUES = 50;
const SEND_CONCURRENCY = 20;
const RUNS = 3;

const SERVER = `
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
const secret = process.env.SECRET;
const workMs = Number(process.env.WORK_MS);
const listeners = Number(process.env.LISTENERS);
// With PACED=1, one delivery's work per turn of the event loop: the app's own createDeliveryTurns.
const turns = process.env.PACED === '1' ? (await import(process.env.DELIVERY_TURNS)).createDeliveryTurns() : undefined;
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (chunk) => parts.push(chunk));
  const work = () => {
    const body = Buffer.concat(parts);
    const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(body).digest('hex'));
    const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.writeHead(401).end();
    JSON.parse(body.toString('utf8'));
    for (const start = performance.now(); performance.now() - start < workMs; );
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\\n');
  };
  req.on('end', () => (turns === undefined ? work() : turns.take().then(work)));
});
server.listen({ port: 0, host: '127.0.0.1', reusePort: listeners > 1 }, () => {
  const { port } = server.address();
  for (let i = 1; i < listeners; i++) {
    createNetServer((socket) => server.emit('connection', socket)).listen({ port, host: '127.0.0.1', reusePort: true });
  }
  setTimeout(() => console.log(port), 100);
});
`;

/** A variant of the bare server: busy work per delivery (ms) and how many listening sockets. */
interface Variant {
  workMs: number;
  listeners: number;
  /** One delivery's work per turn of the event loop, as the app does (`createDeliveryTurns`). */
  paced?: boolean;
}

const BARE: Variant = { workMs: 0, listeners: 1 };

async function burst(variant: Variant, warm: boolean, payloads: unknown[], warmUp: unknown[]): Promise<number> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    env: {
      SECRET: BENCH_SECRET,
      WORK_MS: String(variant.workMs),
      LISTENERS: String(variant.listeners),
      PACED: variant.paced === true ? '1' : '0',
      DELIVERY_TURNS: new URL('../src/app/delivery-turns.ts', import.meta.url).href,
      PATH: process.env.PATH ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [port] = (await once(child.stdout, 'data')) as [Buffer];
  const sender = createWebhookSender(`http://127.0.0.1:${port.toString().trim()}/`, BENCH_SECRET);
  try {
    if (warm) for (const payload of warmUp) await sender.send('issue_comment', payload);
    const acks: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: SEND_CONCURRENCY }, async () => {
        while (next < payloads.length) {
          const ack = await sender.send('issue_comment', payloads[next++]);
          if (ack.status !== 200) throw new Error(`the floor server answered ${ack.status} ${ack.error ?? ''}`);
          acks.push(ack.ms);
        }
      }),
    );
    return percentile(acks, 99);
  } finally {
    sender.close();
    child.kill();
  }
}

const world = await startBenchWorld('agents:\n  demo:\n    adapter: demo\n');
try {
  const payloads = await world.mentions(COMMENTS, ISSUES, 'Thanks, this looks good to me.');
  const warmUp = await world.mentions(50, ISSUES + 1, 'An earlier comment.');
  // A warm sender, as GitHub's are: the burst's 20 connections arrive within a few milliseconds.
  await warmUpClient([...payloads, ...payloads], SEND_CONCURRENCY);
  console.log(`bare webhook server, ${COMMENTS} deliveries from ${SEND_CONCURRENCY} concurrent senders: ack p99 (ms)`);
  console.log('       fresh   warmed by 50   fresh +0.4 ms   +0.4 ms, 8 listeners   +0.4 ms, one per turn');
  for (let run = 1; run <= RUNS; run++) {
    const fresh = await burst(BARE, false, payloads, warmUp);
    const warmed = await burst(BARE, true, payloads, warmUp);
    const busy = await burst({ workMs: 0.4, listeners: 1 }, false, payloads, warmUp);
    const spread = await burst({ workMs: 0.4, listeners: 8 }, false, payloads, warmUp);
    const paced = await burst({ workMs: 0.4, listeners: 1, paced: true }, false, payloads, warmUp);
    const cells = [
      fresh.toFixed(1).padStart(5),
      warmed.toFixed(1).padStart(14),
      busy.toFixed(1).padStart(15),
      spread.toFixed(1).padStart(22),
      paced.toFixed(1).padStart(23),
    ];
    console.log(`run ${run}: ${cells.join(' ')}`);
  }
} finally {
  await world.close();
}
