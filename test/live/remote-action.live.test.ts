import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_MAIN, readCommandFile, runnerEnv, runStep } from '../action/run-action.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
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

describe('the bundled Action drives a remote Pi behind agent-mux serve', () => {
  it('mention → Pi’s write relayed to the runner → asked on GitHub → approved → committed with a pull request', async () => {
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
        env: {
          PATH: `${dirname(bin)}:${process.env.PATH ?? ''}`,
          HOME: serveHome,
          GPU_TOKEN: TOKEN,
          ...providerEnv,
        },
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

    const w = await createGitHubWorld({
      config: `
agents:
  pi:
    adapter: http
    url: ${url}
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
    const approved: string[] = [];
    const approver = setInterval(() => {
      for (const comment of w.gh.state.comments(w.repo, 40)) {
        const id = /^<!-- agent-mux:approval:(\w+) -->/.exec(comment.body)?.[1];
        if (!id || approved.includes(id)) continue;
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
    const posted = model.requests.map((r) => JSON.stringify(r.body)).join('\n');
    expect(posted).not.toContain('ghs_');
    // Nothing of the run is left on the GPU host.
    await vi.waitFor(() => expect(readdirSync(serveRoot)).toEqual([]), { timeout: 10_000 });
    w.gh.assertNoViolations();
  });
});
