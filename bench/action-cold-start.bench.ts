import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Benchmark, fixed, median, type Target } from './bench-kit.ts';

const RUNS = 15;
const LIMIT_MS = 300;
const root = new URL('../', import.meta.url).pathname;
const bundle = join(root, 'dist/index.js');

/**
 * Cold start of the Action's bundle: from spawning `node dist/index.js` to its first request to
 * the GitHub API, beside a bare `node -e` that makes one request to the same server, measured
 * alternately in one run. The Action's first request is `GET /repos/{owner}/{repo}`.
 */
export const benchmark: Benchmark = {
  name: 'action-cold-start',
  title: `node dist/index.js to its first GitHub request vs a bare node -e request (median of ${RUNS})`,
  async run(log) {
    let arrived: (() => void) | undefined;
    const server = createServer((req, res) => {
      arrived?.();
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"message":"benchmark"}');
      req.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-cold-'));
    const eventPath = join(dir, 'event.json');
    writeFileSync(eventPath, JSON.stringify({ action: 'created' }));
    for (const f of ['output', 'summary', 'state']) writeFileSync(join(dir, f), '');
    const payload = {
      action: 'created',
      issue: { number: 1, title: 't', body: '', user: { login: 'a', type: 'User' } },
      comment: { id: 1, body: '@agent hi', user: { login: 'a', type: 'User' } },
      repository: { name: 'demo', owner: { login: 'octo' }, full_name: 'octo/demo' },
      sender: { login: 'a', type: 'User' },
    };
    writeFileSync(eventPath, JSON.stringify(payload));
    const actionEnv = {
      PATH: process.env.PATH ?? '',
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_API_URL: url,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary'),
      GITHUB_STATE: join(dir, 'state'),
      'INPUT_GITHUB-TOKEN': 'ghs_benchmark',
      'INPUT_CONFIG-PATH': '.github/agent-mux.yml',
      'INPUT_POLL-INTERVAL-SECONDS': '5',
    };

    const timeToFirstRequest = (args: string[], env: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const start = performance.now();
        const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
        arrived = () => {
          arrived = undefined;
          resolve(performance.now() - start);
          child.kill('SIGKILL');
        };
        child.on('error', reject);
        child.on('exit', () => setTimeout(() => reject(new Error(`${args[0]} exited before any request`)), 100));
      });

    const bare: number[] = [];
    const action: number[] = [];
    const bareScript = `fetch(${JSON.stringify(`${url}/repos/octo/demo`)}).catch(() => {})`;
    for (let i = 0; i < RUNS + 2; i++) {
      const b = await timeToFirstRequest(['-e', bareScript], { PATH: process.env.PATH ?? '' });
      const a = await timeToFirstRequest([bundle], actionEnv);
      if (i >= 2) {
        bare.push(b);
        action.push(a);
      }
    }
    server.close();
    const extra = median(action) - median(bare);
    const size = statSync(bundle).size;
    log(`bare node -e fetch: median ${fixed(median(bare), 1)} ms`);
    log(`node dist/index.js: median ${fixed(median(action), 1)} ms (${fixed(median(action) / median(bare), 2)}× bare)`);
    log(`extra cold start: ${fixed(extra, 1)} ms (limit ${LIMIT_MS} ms); bundle ${fixed(size / 2 ** 20, 2)} MiB`);
    const targets: Target[] = [
      { label: 'Action cold start beyond bare node', value: extra, op: '<=', limit: LIMIT_MS, unit: ' ms', digits: 1 },
    ];
    return {
      targets,
      facts: [
        `bundle dist/index.js ${fixed(size / 2 ** 20, 2)} MiB`,
        `cold start ${fixed(median(action) / median(bare), 2)}× bare node`,
      ],
      flags: [],
    };
  },
};
