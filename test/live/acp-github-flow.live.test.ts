import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeRun } from '../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, WORLD_TOKEN } from '../support/github-world.ts';
import { WRITE_COMMAND } from './acp-write-cases.ts';
import { agentEnv } from './agent-env.ts';
import { answerApprovals } from './answer-approvals.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import type { LiveSpec } from './live-spec.ts';
import { spec as codex } from './specs/codex.live.ts';
import { spec as codexAcp } from './specs/codex-acp.live.ts';
import { spec as kilo } from './specs/kilo.live.ts';
import { spec as opencode } from './specs/opencode.live.ts';
import { spec as qwen } from './specs/qwen.live.ts';

// The whole GitHub flow with a real ACP agent: a mention on the fake GitHub starts Codex 0.169.0
// through codex-acp 2.6.0 (the built-in `codex-acp` adapter, its launcher on PATH as the Action
// puts it there); the fake model asks Codex to run a command that writes; Codex asks over ACP
// (`session/request_permission`); the approval is asked on GitHub, a maintainer approves it with
// `/approve <id>`, the command runs, and the file is committed on a branch with a pull request.
// Then the same for the agents whose GitHub default is their ACP mode (`Adapter.approvingMode`):
// Qwen Code, OpenCode and Kilo, named in the mention and not listed in the config.

const CONFIG = `
agents:
  codex:
    adapter: codex-acp
approvals:
  users: []
  permission: maintain
  timeout: 90s
`;

let world: GitHubWorld | undefined;
let model: FakeModelServer | undefined;
const homes: string[] = [];
afterEach(async () => {
  await world?.close();
  await model?.close();
  world = undefined;
  model = undefined;
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('GitHub flow with Codex over ACP (codex-acp 2.6.0, codex 0.169.0)', () => {
  it('mention → Codex asks for its write → approval comment → maintainer approves → the command runs → commit and PR', async () => {
    const launcher = await installCli(codexAcp);
    const codexBin = await installCli(codex);
    const tracking = await approvedWriteFlow({
      config: CONFIG,
      mention: '@agent codex: add the marker file',
      headless: codex,
      bin: codexBin,
      shellArgs: { sandbox_permissions: 'require_escalated', justification: 'Write the marker file.' },
      env: { PATH: `${dirname(launcher)}:${process.env.PATH ?? ''}`, CODEX_PATH: codexBin },
    });
    // codex-acp reports the turn's usage in its prompt response: tokens and USD reach the report.
    expect(tracking).toMatch(/Tokens \| 160 in \/ 48 out/);
  });

  // Issue 31: HOME outside the temp dir, as on a runner, and a model that does what a real one does:
  // it runs the write in Codex's read-only sandbox first, is refused, and asks again with escalation
  // and a justification. codex-acp reports the refused call to an ACP v1 client as nothing, and drops
  // the justification: both come from Codex's rollout.
  it('sandboxed write refused → escalation with a justification → the approval shows the reason → approved → committed; the refusal is a step', async () => {
    const launcher = await installCli(codexAcp);
    const codexBin = await installCli(codex);
    const home = mkdtempSync(join(homedir(), '.agent-mux-live-home-'));
    homes.push(home);
    const tracking = await approvedWriteFlow({
      config: CONFIG,
      mention: '@agent codex: add the marker file',
      headless: codex,
      bin: codexBin,
      home,
      escalate: { sandbox_permissions: 'require_escalated', justification: 'Write the marker file in the workspace.' },
      env: { PATH: `${dirname(launcher)}:${process.env.PATH ?? ''}`, CODEX_PATH: codexBin },
    });
    const w = world as GitHubWorld;
    const approval = w.gh.state.comments(w.repo, 21).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('the agent says: Write the marker file in the workspace.');
    // Two model calls to the shell: the sandboxed one (refused) and the escalated one.
    expect(model?.requests.filter((r) => r.reply === 'tool')).toHaveLength(2);
    const check = JSON.stringify(w.gh.state.checkRuns(w.repo));
    expect(check).toContain('Read-only file system');
    expect(tracking).toContain('echo agent-mux-live');
  });

  it('sandboxed write refused, the model gives up → not ✅: neutral, the refused command named', async () => {
    const launcher = await installCli(codexAcp);
    const codexBin = await installCli(codex);
    const home = mkdtempSync(join(homedir(), '.agent-mux-live-home-'));
    homes.push(home);
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    model = await startFakeModelServer({ case: 'tool', shell: { command: WRITE_COMMAND } });
    const { env: providerEnv } = await codex.setup({
      baseUrl: model.url,
      home,
      workspace: w.workspace,
      bin: codexBin,
      case: 'tool',
    });
    w.gh.state.addIssue(w.repo, { number: 22, title: 'Add the marker file', body: 'Please add it.', user: 'alice' });
    const decision = await handleTrigger(w.deps, commentEvent(w, 22, 'alice', '@agent codex: add the marker file'));
    if (decision.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
    const outcome = await executeRun({
      deps: w.deps,
      job: decision.job,
      registry: w.registry(),
      workspace: w.workspace,
      git: { token: WORLD_TOKEN, author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
      env: agentEnv(home, {
        ...providerEnv,
        PATH: `${dirname(launcher)}:${process.env.PATH ?? ''}`,
        CODEX_PATH: codexBin,
      }),
      secrets: [WORLD_TOKEN],
      timeoutMs: 180_000,
    });
    expect(outcome.conclusion, outcome.reason).toBe('neutral');
    expect(outcome.reason).toContain('echo agent-mux-live > agent-mux-live.txt');
    expect(w.gh.state.pulls(w.repo)).toHaveLength(0);
    expect(JSON.stringify(w.gh.state.checkRuns(w.repo))).toContain('Read-only file system');
    w.gh.assertNoViolations();
  });
});

/** The defaults chosen for GitHub: `@agent <name>:` with the name not in the config runs `<name>-acp`. */
const DEFAULT_CONFIG = `
approvals:
  users: []
  permission: maintain
  timeout: 90s
`;
describe.each([
  { name: 'qwen', headless: qwen, tokens: /Tokens \| [1-9][\d,]* in \/ [1-9][\d,]* out/ },
  { name: 'opencode', headless: opencode, tokens: /Tokens \| [1-9][\d,]* in \/ [1-9][\d,]* out/ },
  { name: 'kilo', headless: kilo, tokens: /Tokens \| [1-9][\d,]* in \/ [1-9][\d,]* out/ },
])('GitHub flow with $name, unlisted, over ACP (its GitHub default)', ({ name, headless, tokens }) => {
  it(`mention → ${name}-acp asks for its write → maintainer approves → the command runs → commit and PR`, async () => {
    const bin = await installCli(headless);
    const tracking = await approvedWriteFlow({
      config: DEFAULT_CONFIG,
      mention: `@agent ${name}: add the marker file`,
      headless,
      bin,
      env: { PATH: `${dirname(bin)}:${process.env.PATH ?? ''}` },
    });
    expect(tracking).toMatch(tokens);
    // The fake model is not on the price list: the report says so rather than showing $0.00 as a price.
    expect(tracking).toMatch(/Cost \| \$0\.00 \(no price known for /);
    if (process.env.AGENT_MUX_SHOW_TRACKING) console.log(tracking);
  });
});

/**
 * One mention on an issue of the fake GitHub, the agent's write asked on GitHub and approved with
 * `/approve <id>` by a maintainer: asserts the approval, the commit and the pull request, and
 * returns the tracking comment's body.
 */
async function approvedWriteFlow(input: {
  config: string;
  mention: string;
  headless: LiveSpec;
  bin: string;
  shellArgs?: Record<string, unknown>;
  /** What the model adds when its sandbox refuses the first call (see ShellCall.escalate). */
  escalate?: Record<string, unknown>;
  /** The agent's HOME (default: a new directory under the temp dir). */
  home?: string;
  env: Record<string, string>;
}): Promise<string> {
  const w = await createGitHubWorld({ config: input.config });
  world = w;
  model = await startFakeModelServer({
    case: 'tool',
    shell: {
      command: WRITE_COMMAND,
      ...(input.shellArgs ? { extraArgs: input.shellArgs } : {}),
      ...(input.escalate ? { escalate: input.escalate } : {}),
    },
  });
  const home = input.home ?? mkdtempSync(join(tmpdir(), 'agent-mux-acp-flow-home-'));
  const { env: providerEnv } = await input.headless.setup({
    baseUrl: model.url,
    home,
    workspace: w.workspace,
    bin: input.bin,
    case: 'tool',
  });

  w.gh.state.addIssue(w.repo, { number: 21, title: 'Add the marker file', body: 'Please add it.', user: 'alice' });
  const decision = await handleTrigger(w.deps, commentEvent(w, 21, 'alice', input.mention));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
  const job = decision.job;

  const asked: string[] = [];
  const outcome = await executeRun({
    deps: w.deps,
    job,
    registry: w.registry(),
    workspace: w.workspace,
    git: { token: WORLD_TOKEN, author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
    env: agentEnv(home, { ...providerEnv, ...input.env }),
    secrets: [WORLD_TOKEN],
    timeoutMs: 180_000,
    attachApprovals: answerApprovals(w, job, 21, 'approve', asked),
  });

  expect(outcome.conclusion, outcome.reason).toBe('success');
  expect(asked).toHaveLength(1);
  expect(outcome.approvals).toEqual([expect.objectContaining({ decision: 'approved', by: 'bob' })]);
  const approval = w.gh.state.comments(w.repo, 21).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
  expect(approval?.body).toContain(WRITE_COMMAND);
  expect(approval?.body).toContain('**Approved** by @bob');

  expect(outcome.branch).toBeDefined();
  expect(await w.git(['show', `${outcome.branch}:agent-mux-live.txt`], w.bare)).toBe('agent-mux-live');
  const pulls = w.gh.state.pulls(w.repo);
  expect(pulls).toHaveLength(1);
  expect(outcome.pullRequestUrl).toBe(`https://github.com/octo/demo/pull/${pulls[0]?.number}`);
  const tracking = w.gh.state.comments(w.repo, 21).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
  expect(tracking?.body).toContain('approved by @\u200bbob');
  expect(existsSync(join(w.workspace, 'agent-mux-live.txt'))).toBe(true);
  w.gh.assertNoViolations();
  return tracking?.body ?? '';
}
