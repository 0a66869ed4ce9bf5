/**
 * The floor under the app's burst figure: the same burst as `app-busy.bench.ts` (200 signed
 * `issue_comment` webhooks, 20 concurrent senders over keep-alive connections) sent to a bare Node
 * server that only reads the body, checks the signature and parses the JSON (`node:http` +
 * `node:crypto`; no Probot, no store), fresh, then warmed by 50 sequential deliveries first. What
 * its acknowledgement p99 is on this machine bounds what any app can reach here.
 *
 *   node bench/webhook-ack-floor.bench.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { BENCH_SECRET } from './app-process.ts';
import { createWebhookSender } from './app-webhook-sender.ts';
import { startBenchWorld } from './app-world.ts';
import { percentile } from './bench-kit.ts';

const COMMENTS = 200;
const ISSUES = 50;
const SEND_CONCURRENCY = 20;
const RUNS = 3;

const SERVER = `
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
const secret = process.env.SECRET;
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (chunk) => parts.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(parts);
    const expected = Buffer.from('sha256=' + createHmac('sha256', secret).update(body).digest('hex'));
    const given = Buffer.from(String(req.headers['x-hub-signature-256'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.writeHead(401).end();
    JSON.parse(body.toString('utf8'));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\\n');
  });
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function burst(warm: boolean, payloads: unknown[], warmUp: unknown[]): Promise<number> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    env: { SECRET: BENCH_SECRET, PATH: process.env.PATH ?? '' },
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
  console.log(`bare webhook server, ${COMMENTS} deliveries from ${SEND_CONCURRENCY} concurrent senders: ack p99 (ms)`);
  for (let run = 1; run <= RUNS; run++) {
    const fresh = await burst(false, payloads, warmUp);
    const warmed = await burst(true, payloads, warmUp);
    console.log(`run ${run}: fresh ${fresh.toFixed(1)}   warmed by 50 deliveries ${warmed.toFixed(1)}`);
  }
} finally {
  await world.close();
}
