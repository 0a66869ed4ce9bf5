import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_MAIN, readCommandFile, runnerEnv, runStep } from '../action/run-action.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { isAlive as alive } from '../support/process-alive.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import { spec as pi } from './specs/pi.live.ts';

// Issue 30 as a user runs it: the bundled Action (`node dist/index.js` with the runner's variables)
// on an issue mention, the repository config pointing `pi` at a real `agent-mux serve --adapter pi`
// process (the bundled CLI, its own HOME and working root), the real Pi 0.73.1, the fake model
// asking for `printf 'hello\n' > GREETING.md`. The write is asked on GitHub, approved by a
// maintainer, runs in the runner's checkout and lands as a commit with a pull request.

const CLI = resolve(import.meta.dirname, '../../dist/cli/index.js');
const WRITE = "printf 'hello\\n' > GREETING.md";
const TOKEN = 'gpu-host-token-0123456789abcdef';

let world: GitHubWorld | undefined;
let model: FakeModelServer | undefined;
let serve: ChildProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  serve?.kill('SIGTERM');
  await world?.close();
  await model?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  world = undefined;
  model = undefined;
  serve = undefined;
});

/** A directory outside /tmp, as on a runner or a GPU host. */
function place(name: string): string {
  const base = join(homedir(), '.cache', 'agent-mux', 'live-homes');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `agent-mux-remote-action-${name}-`));
  dirs.push(dir);
  return dir;
}

/** Every process whose working directory lies under `root` (Pi and what it started on the GPU host). */
function processesUnder(root: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(root)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

interface GpuHost {
  url: string;
  serveRoot: string;
  serveHome: string;
  /** What serve printed. */
  output(): string;
}

/** The real Pi behind a real `agent-mux serve --adapter pi` (the bundled CLI), its own HOME and working root. */
async function startGpuHost(): Promise<GpuHost> {
  const bin = await installCli(pi);
  model = await startFakeModelServer({ case: 'tool', shell: { command: WRITE } });
  const serveHome = place('serve-home');
  const serveRoot = place('serve-root');
  const { env: providerEnv } = await pi.setup({
    baseUrl: model.url,
    home: serveHome,
    workspace: serveRoot,
    bin,
    case: 'tool',
  });
  serve = spawn(
    process.execPath,
    [CLI, 'serve', '--adapter', 'pi', '--port', '0', '--token-env', 'GPU_TOKEN', '--workspace', serveRoot],
    {
      env: { PATH: `${dirname(bin)}:${process.env.PATH ?? ''}`, HOME: serveHome, GPU_TOKEN: TOKEN, ...providerEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let served = '';
  serve.stdout?.on('data', (d: Buffer) => {
    served += d.toString();
  });
  serve.stderr?.on('data', (d: Buffer) => {
    served += d.toString();
  });
  await vi.waitFor(() => expect(served).toMatch(/at http:\/\/127\.0\.0\.1:\d+/), { timeout: 30_000 });
  const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(served)?.[1] as string;
  return { url, serveRoot, serveHome, output: () => served };
}

/** The fake GitHub with the repository config pointing `pi` at the GPU host, and issue 40's mention. */
async function mentionWorld(host: GpuHost) {
  const w = await createGitHubWorld({
    config: `
agents:
  pi:
    adapter: http
    url: ${host.url}
    options:
      auth: { type: bearer, tokenEnv: AGENT_MUX_REMOTE_TOKEN }
approvals:
  users: []
  permission: maintain
  timeout: 90s
`,
  });
  world = w;
  w.gh.state.addIssue(w.repo, { number: 40, title: 'Add a greeting', body: 'Please.', user: 'alice' });
  const files = await runnerEnv(w, commentEvent(w, 40, 'alice', '@agent pi: please add GREETING.md'), {
    agent: 'pi',
    'remote-agent-token': TOKEN,
  });
  dirs.push(files.dir);
  return { w, files };
}

/** The ids of the approval comments on issue 40 not yet in `seen`. */
function newApprovals(w: GitHubWorld, seen: string[]): string[] {
  const ids: string[] = [];
  for (const comment of w.gh.state.comments(w.repo, 40)) {
    const id = /^<!-- agent-mux:approval:(\w+) -->/.exec(comment.body)?.[1];
    if (id && !seen.includes(id)) ids.push(id);
  }
  return ids;
}

describe('the bundled Action drives a remote Pi behind agent-mux serve', () => {
  it('mention → Pi’s write relayed to the runner → asked on GitHub → approved → committed with a pull request', async () => {
    const host = await startGpuHost();
    const { w, files } = await mentionWorld(host);
    const approved: string[] = [];
    const approver = setInterval(() => {
      for (const id of newApprovals(w, approved)) {
        approved.push(id);
        w.gh.state.addComment(w.repo, 40, { body: `/approve ${id}`, user: 'bob' });
      }
    }, 50);
    const result = await runStep(ACTION_MAIN, { ...files.env, HOME: place('runner-home') }).finally(() =>
      clearInterval(approver),
    );
    const outputs = await readCommandFile(files.output);
    expect(result.code, result.stdout.slice(-3000)).toBe(0);
    expect(outputs.conclusion, result.stdout.slice(-3000)).toBe('success');
    expect(approved).toHaveLength(1);
    const branch = outputs.branch as string;
    expect(await w.git(['show', `${branch}:GREETING.md`], w.bare)).toBe('hello');
    expect(outputs['pull-request-url']).toMatch(/\/pull\/\d+$/);
    // The runner's token never went to the GPU host, nor did its MCP URL.
    const posted = (model as FakeModelServer).requests.map((r) => JSON.stringify(r.body)).join('\n');
    expect(posted).not.toContain('ghs_');
    // Nothing of the run is left on the GPU host.
    await vi.waitFor(() => expect(readdirSync(host.serveRoot)).toEqual([]), { timeout: 10_000 });
    w.gh.assertNoViolations();
  });

  it('mention → Pi’s write asked on GitHub → denied → nothing written, no PR, not ✅', async () => {
    const host = await startGpuHost();
    const { w, files } = await mentionWorld(host);
    const denied: string[] = [];
    const denier = setInterval(() => {
      for (const id of newApprovals(w, denied)) {
        denied.push(id);
        w.gh.state.addComment(w.repo, 40, { body: `/deny ${id}`, user: 'bob' });
      }
    }, 50);
    const result = await runStep(ACTION_MAIN, { ...files.env, HOME: place('runner-home') }).finally(() =>
      clearInterval(denier),
    );
    const outputs = await readCommandFile(files.output);
    expect(denied).toHaveLength(1);
    expect(outputs.conclusion, result.stdout.slice(-3000)).toBe('neutral');
    expect(result.code).not.toBe(0);
    expect(existsSync(join(w.workspace, 'GREETING.md'))).toBe(false);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
    expect(w.gh.state.checkRuns(w.repo)[0]).toMatchObject({ status: 'completed', conclusion: 'neutral' });
    await vi.waitFor(() => expect(readdirSync(host.serveRoot)).toEqual([]), { timeout: 10_000 });
    w.gh.assertNoViolations();
  });

  it('serve killed (SIGKILL) while Pi waits for its approval → the Action fails fast naming the remote; no process left on either side', async () => {
    const host = await startGpuHost();
    const { w, files } = await mentionWorld(host);
    const gpu = serve as ChildProcess;
    let killedAt = 0;
    let piWhileAsking: number[] = [];
    const watcher = setInterval(() => {
      if (killedAt === 0 && newApprovals(w, []).length > 0) {
        // Pi is running on the GPU host, its command relayed and asked on GitHub: the host dies.
        piWhileAsking = processesUnder(host.serveRoot);
        killedAt = Date.now();
        gpu.kill('SIGKILL');
      }
    }, 50);
    const result = await runStep(ACTION_MAIN, { ...files.env, HOME: place('runner-home') }).finally(() =>
      clearInterval(watcher),
    );
    const outputs = await readCommandFile(files.output);
    expect(killedAt, result.stdout.slice(-3000)).toBeGreaterThan(0);
    expect(piWhileAsking.length).toBeGreaterThan(0);
    // Not the approval's 90 s timeout: the lost stream ends the run.
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(result.code).not.toBe(0);
    expect(outputs.conclusion).toBe('failure');
    const check = w.gh.state.checkRuns(w.repo)[0];
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(JSON.stringify(check)).toMatch(/the remote host 127\.0\.0\.1:\d+ became unreachable mid-run/);
    const tracking = w.gh.state.comments(w.repo, 40).find((c) => c.body.includes('became unreachable'));
    expect(tracking?.body).toMatch(/127\.0\.0\.1:\d+ became unreachable/);
    // The pending approval is not left open, nothing was written, no PR.
    expect(existsSync(join(w.workspace, 'GREETING.md'))).toBe(false);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
    // Pi (and whatever it started) died with serve; the runner's side has nothing left either.
    await vi.waitFor(() => expect(piWhileAsking.filter(alive)).toEqual([]), { timeout: 10_000 });
    expect(processesUnder(host.serveRoot)).toEqual([]);
    expect(processesUnder(w.workspace)).toEqual([]);
    w.gh.assertNoViolations();
  });
});
