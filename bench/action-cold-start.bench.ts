import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopLeftoverAgents } from '../src/action/stop-leftover-agents.ts';
import { runnerEnv } from '../test/action/run-action.ts';
import { commentEvent, createGitHubWorld } from '../test/support/github-world.ts';
import { actionBundles } from './action-bundles.ts';
import { type Benchmark, fixed, median, type Target } from './bench-kit.ts';

const RUNS = 15;
const LIMIT_MS = 300;
const MODEL_RUNS = 7;
const MODEL_LIMIT_MS = 1000;
const root = new URL('../', import.meta.url).pathname;
const { bundle, baseline } = actionBundles();
const modelAgent = join(root, 'bench/fixtures/model-request-agent.mjs');

/**
 * Process start → first model request: the Action's bundle run as the runner runs it on an issue
 * comment, against the fake GitHub (its real write throttle, 1 s between writes) and a real git
 * checkout, with a Process-protocol fixture agent whose first act is one request to a local fake
 * model endpoint; the time is taken when that request arrives. Returns the medians by bundle.
 */
async function timeToFirstModelRequest(log: (line: string) => void): Promise<{ current: number; before?: number }> {
  let arrived: (() => void) | undefined;
  const model = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived?.();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1/messages`;
  const world = await createGitHubWorld({
    config: `agents:\n  bench:\n    adapter: process\n    options:\n      binary: ${process.execPath}\n      args: [${modelAgent}, ${modelUrl}]\n`,
  });
  world.gh.state.addIssue(world.repo, { number: 1, title: 'Benchmark', user: 'alice' });
  const once = async (script: string, i: number): Promise<number> => {
    const files = await runnerEnv(world, commentEvent(world, 1, 'alice', '@agent bench: go'), { agent: 'bench' });
    files.env.GITHUB_RUN_ID = String(5000 + i);
    const start = performance.now();
    const child = spawn(process.execPath, [script], { env: files.env, stdio: 'ignore' });
    const ms = await new Promise<number>((resolve, reject) => {
      arrived = () => {
        arrived = undefined;
        resolve(performance.now() - start);
      };
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`${script} exited (${code}) before any model request`)));
    });
    child.removeAllListeners('exit');
    child.kill('SIGKILL');
    await stopLeftoverAgents(`gha-${5000 + i}-1`);
    return ms;
  };
  const current: number[] = [];
  const before: number[] = [];
  try {
    for (let i = 0; i < MODEL_RUNS + 1; i++) {
      const c = await once(bundle, i * 2);
      const b = baseline ? await once(baseline, i * 2 + 1) : undefined;
      if (i === 0) continue; // warm-up: the first checkout and Node's compile cache
      current.push(c);
      if (b !== undefined) before.push(b);
    }
  } finally {
    model.close();
    await world.close();
  }
  log(
    `node ${bundle} → first model request: median ${fixed(median(current), 0)} ms (${current.map((v) => fixed(v, 0)).join(', ')})`,
  );
  if (before.length > 0) {
    log(
      `baseline ${baseline} → first model request: median ${fixed(median(before), 0)} ms (${before.map((v) => fixed(v, 0)).join(', ')})`,
    );
  }
  return { current: median(current), ...(before.length > 0 ? { before: median(before) } : {}) };
}

/**
 * Cold start of the Action's bundle: from spawning `node dist/index.js` to its first request to
 * the GitHub API, beside a bare `node -e` that makes one request to the same server, measured
 * alternately in one run. The Action's first request is `GET /repos/{owner}/{repo}`.
 */
export const benchmark: Benchmark = {
  name: 'action-cold-start',
  title: `node dist/index.js to its first GitHub request vs a bare node -e request (median of ${RUNS}); to its agent's first model request (median of ${MODEL_RUNS})`,
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
    const firstModel = await timeToFirstModelRequest(log);
    const extra = median(action) - median(bare);
    const size = statSync(bundle).size;
    log(`bare node -e fetch: median ${fixed(median(bare), 1)} ms`);
    log(`node dist/index.js: median ${fixed(median(action), 1)} ms (${fixed(median(action) / median(bare), 2)}× bare)`);
    log(`extra cold start: ${fixed(extra, 1)} ms (limit ${LIMIT_MS} ms); bundle ${fixed(size / 2 ** 20, 2)} MiB`);
    const targets: Target[] = [
      { label: 'Action cold start beyond bare node', value: extra, op: '<=', limit: LIMIT_MS, unit: ' ms', digits: 1 },
      {
        label: 'process start → first model request (fixture agent, warm)',
        value: firstModel.current,
        op: '<=',
        limit: MODEL_LIMIT_MS,
        unit: ' ms',
        digits: 0,
      },
    ];
    return {
      targets,
      facts: [
        `bundle dist/index.js ${fixed(size / 2 ** 20, 2)} MiB`,
        `cold start ${fixed(median(action) / median(bare), 2)}× bare node`,
        ...(firstModel.before === undefined
          ? []
          : [
              `first model request ${fixed(firstModel.current, 0)} ms vs ${fixed(firstModel.before, 0)} ms with the baseline bundle (${fixed(firstModel.before / firstModel.current, 1)}× faster)`,
            ]),
      ],
      flags: [],
    };
  },
};
