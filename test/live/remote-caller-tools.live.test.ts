import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/agents/claude/index.ts';
import { opencodeAcpAdapter } from '../../src/adapters/agents/opencode/opencode-acp.ts';
import { piAdapter } from '../../src/adapters/agents/pi/index.ts';
import type { Adapter } from '../../src/core/adapter/index.ts';
import { executeRun, type RunOutcome } from '../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { type RemoteServerHandle, startRemoteServer } from '../../src/remote/index.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, WORLD_TOKEN } from '../support/github-world.ts';
import { answerApprovals } from './answer-approvals.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import type { LiveSpec } from './live-spec.ts';
import { spec as claude } from './specs/claude.live.ts';
import { spec as opencode } from './specs/opencode.live.ts';
import { spec as pi } from './specs/pi.live.ts';

interface Served {
  name: string;
  spec: LiveSpec;
  adapter: (bin: string) => Adapter;
  /** The agent's own shell tool, as the model sees it: it must not be offered. */
  ownShell: RegExp;
}
const SERVED: Served[] = [
  { name: 'pi', spec: pi, adapter: (bin) => piAdapter({ command: bin }), ownShell: /"name":"bash"/ },
  { name: 'claude', spec: claude, adapter: (bin) => claudeAdapter({ command: bin }), ownShell: /"name":"Bash"/ },
  // An ACP agent: OpenCode over ACP, its built-in tools denied, the run's MCP tools given in `session/new`.
  {
    name: 'opencode-acp',
    spec: opencode,
    adapter: (bin) => opencodeAcpAdapter({ command: bin }),
    ownShell: /"name":"(bash|write|edit|read)"/,
  },
];

// Issue 30: a GPU-hosted agent (Pi, Claude Code, OpenCode over ACP) behind `agent-mux serve` works on the caller's checkout. The real Pi
// (pinned) runs under the server with its own HOME and working root; the fake model asks it to run
// a command that writes GREETING.md. The command travels as a relayed `shell` call to the caller
// (the GitHub run), whose policy asks for it on GitHub; approved, it runs in the caller's checkout
// and the file is committed with a pull request. Denied, nothing is written.

const WRITE = "printf 'hello\\n' > GREETING.md";
const REMOTE_TOKEN = 'remote-bearer-token-0123456789';

let world: GitHubWorld | undefined;
let model: FakeModelServer | undefined;
let server: RemoteServerHandle | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  await world?.close();
  await model?.close();
  server = undefined;
  world = undefined;
  model = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `agent-mux-remote-pi-${name}-`));
  dirs.push(dir);
  return dir;
}

/** The caller's environment: no credentials but the remote's bearer token, a HOME of its own. */
function callerEnv(home: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/KEY|TOKEN|SECRET|PASSWORD|BASE_URL|^GH_|^GITHUB_|^VITEST|^NODE_ENV$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, CI: '1', NO_COLOR: '1', AGENT_MUX_REMOTE_TOKEN: REMOTE_TOKEN };
}

async function remoteFlow(
  served: Served,
  answer: 'approve' | 'deny',
): Promise<{ outcome: RunOutcome; w: GitHubWorld }> {
  const bin = await installCli(served.spec);
  model = await startFakeModelServer({ case: 'tool', shell: { command: WRITE } });
  // The GPU host: its own HOME (Pi's models.json points at the fake model) and its own working root.
  const serveHome = scratch('serve-home');
  const serveRoot = scratch('serve-root');
  const { env: providerEnv } = await served.spec.setup({
    baseUrl: model.url,
    home: serveHome,
    workspace: serveRoot,
    bin,
    case: 'tool',
  });
  server = await startRemoteServer({
    adapter: served.adapter(bin),
    auth: { type: 'bearer', token: REMOTE_TOKEN },
    workspaceRoot: serveRoot,
    env: { PATH: process.env.PATH, HOME: serveHome, ...providerEnv },
    fence: { kind: 'processes' },
  });

  const config = `
agents:
  gpu:
    adapter: http
    url: ${server.url}
    options:
      auth: { type: bearer, tokenEnv: AGENT_MUX_REMOTE_TOKEN }
approvals:
  users: []
  permission: maintain
  timeout: 90s
`;
  const w = await createGitHubWorld({ config });
  world = w;
  w.gh.state.addIssue(w.repo, { number: 30, title: 'Add a greeting', body: 'Please.', user: 'alice' });
  const decision = await handleTrigger(w.deps, commentEvent(w, 30, 'alice', '@agent gpu: please add GREETING.md'));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
  const job = decision.job;
  const answered: string[] = [];
  const outcome = await executeRun({
    deps: w.deps,
    job,
    registry: w.registry(),
    workspace: w.workspace,
    git: { token: WORLD_TOKEN, author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
    env: callerEnv(scratch('caller-home')),
    secrets: [WORLD_TOKEN],
    timeoutMs: 180_000,
    attachApprovals: answerApprovals(w, job, 30, answer, answered),
  });
  expect(answered).toHaveLength(1);
  const approval = w.gh.state.comments(w.repo, 30).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
  expect(approval?.body).toContain('GREETING.md');
  // Nothing of the run stays on the GPU host; the model saw the relayed tools, not Pi's own.
  await server.close();
  expect(readdirSync(serveRoot)).toEqual([]);
  const toolNames = JSON.stringify(model.requests.map((r) => (r.body as { tools?: unknown })?.tools ?? []));
  expect(toolNames).toMatch(/(mcp__agent-?mux__|agent-mux_)shell/);
  expect(toolNames).not.toMatch(served.ownShell);
  w.gh.assertNoViolations();
  return { outcome, w };
}

describe.each(SERVED)('a remote $name (agent-mux serve) works on the caller’s checkout, asking on GitHub', (served) => {
  it('mention → the agent’s command relayed → approval on GitHub → approved → GREETING.md committed with a PR', async () => {
    const { outcome, w } = await remoteFlow(served, 'approve');
    expect(outcome.conclusion, outcome.reason).toBe('success');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'bob' })]);
    expect(outcome.branch).toBeDefined();
    expect(await w.git(['show', `${outcome.branch}:GREETING.md`], w.bare)).toBe('hello');
    expect(w.gh.state.pulls(w.repo)).toHaveLength(1);
    // The check run showed the relayed step.
    const check = JSON.stringify(w.gh.state.checkRuns(w.repo));
    expect(check).toContain('shell');
  });

  it('denied on GitHub → nothing is written in the checkout', async () => {
    const { outcome, w } = await remoteFlow(served, 'deny');
    expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'denied' })]);
    // Not a green run that did nothing: refused and no change is `neutral`, with the reason.
    expect(outcome.conclusion).toBe('neutral');
    expect(outcome.reason).toMatch(
      /changed no files: its attempt to change them was refused or failed \(`shell printf/,
    );
    expect(w.gh.state.checkRuns(w.repo)[0]).toMatchObject({ conclusion: 'neutral' });
    expect(existsSync(join(w.workspace, 'GREETING.md'))).toBe(false);
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
  });
});
