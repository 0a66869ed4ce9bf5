#!/usr/bin/env node
// A stand-in for `opencode serve --port <n> --hostname 127.0.0.1`: health, `GET /event`, `POST /session`,
// `prompt_async` (replays the recorded stream named by FAKE_OPENCODE_SSE, pausing at each
// `permission.asked` until `/permission/<id>/reply` is posted), abort. With FAKE_OPENCODE_HANG it stops
// after the first step starts. Reports what it received on stderr (`config …`, `reply …`, `abort`).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const events = readFileSync(process.env.FAKE_OPENCODE_SSE ?? '', 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('data: '))
  .map((line) => line.slice(6));
const sessionId = JSON.parse(events.find((e) => e.includes('"session.created"')) ?? '{}').properties?.sessionID;
const clients = new Set();
const waiting = new Map();
process.stderr.write(`pid ${process.pid}\nconfig ${process.env.OPENCODE_CONFIG_CONTENT}\n`);

const send = (data) => {
  for (const res of clients) res.write(`data: ${data}\n\n`);
};

async function replay() {
  for (const data of events) {
    send(data);
    const event = JSON.parse(data);
    // Hanging: the turn starts, then nothing more comes.
    if (process.env.FAKE_OPENCODE_HANG && event.properties?.part?.type === 'step-start') return;
    if (event.type === 'permission.asked') await new Promise((resolve) => waiting.set(event.properties.id, resolve));
  }
}

const body = (req) =>
  new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });

createServer(async (req, res) => {
  const url = req.url ?? '/';
  if (url === '/global/health') return res.end(JSON.stringify({ healthy: true, version: 'fake' }));
  if (url === '/event') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: {"type":"server.connected","properties":{}}\n\n');
    clients.add(res);
    req.on('close', () => clients.delete(res));
    return;
  }
  const text = await body(req);
  if (url === '/session') return res.end(JSON.stringify({ id: sessionId }));
  if (url.endsWith('/prompt_async')) {
    res.writeHead(204).end();
    void replay();
    return;
  }
  if (url.endsWith('/abort')) {
    process.stderr.write('abort\n');
    return res.end('true');
  }
  const reply = /^\/permission\/([^/]+)\/reply$/.exec(url);
  if (reply) {
    process.stderr.write(`reply ${text}\n`);
    waiting.get(decodeURIComponent(reply[1]))?.();
    return res.end('true');
  }
  res.writeHead(404).end('{}');
}).listen(port, '127.0.0.1', () => process.stdout.write(`opencode server listening on http://127.0.0.1:${port}\n`));
