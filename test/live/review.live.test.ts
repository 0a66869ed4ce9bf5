import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REVIEW_CHECK_RUN_NAME } from '../../src/github/github-names.ts';
import { executeRun } from '../../src/github/use-cases/execute-run.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, WORLD_TOKEN } from '../support/github-world.ts';
import { OFF_BY_ONE, SUM_CODE } from '../support/review-fixture.ts';
import { agentEnv } from './agent-env.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import type { LiveSpec } from './live-spec.ts';
import { spec as claude } from './specs/claude.live.ts';
import { spec as codex } from './specs/codex.live.ts';

// `@agent review` with real CLIs: the fake model calls the run's `report_finding` tool (over the
// MCP server agent-mux gives each CLI), and the finding lands as an inline review comment with its
// suggestion on the fake GitHub, the check run "agent-mux / review" red for the blocker. Both CLIs
// defer MCP tools, so the model searches for the tool first, as a real model does: Claude Code
// 2.1.330 with its `ToolSearch` tool (then `mcp__agent-mux__report_finding`), Codex 0.169.0 with the
// Responses API's client-side `tool_search` (then `report_finding` in the namespace `mcp__agent_mux`).

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

async function reviewWith(spec: LiveSpec, adapter: string): Promise<void> {
  const bin = await installCli(spec);
  const w = await createGitHubWorld({ config: `agents:\n  reviewer:\n    adapter: ${adapter}\n` });
  world = w;
  await w.commit('feature', { 'src/sum.ts': SUM_CODE }, 'add sum');
  w.gh.state.addPull(w.repo, { number: 7, title: 'Add sum', headRef: 'feature', user: 'mallory' });
  model = await startFakeModelServer({ case: 'tool', shell: { finding: OFF_BY_ONE } });
  const home = mkdtempSync(join(tmpdir(), 'agent-mux-review-home-'));
  homes.push(home);
  const { env: providerEnv } = await spec.setup({
    baseUrl: model.url,
    home,
    workspace: w.workspace,
    bin,
    case: 'tool',
  });
  const decision = await handleTrigger(w.deps, commentEvent(w, 7, 'alice', '@agent review', { pr: true }));
  if (decision.kind !== 'run') throw new Error(`expected a run, got ${JSON.stringify(decision)}`);
  const outcome = await executeRun({
    deps: w.deps,
    job: decision.job,
    registry: w.registry(),
    workspace: w.workspace,
    git: { token: WORLD_TOKEN, author: { name: 'agent-mux', email: 'agent-mux@users.noreply.github.com' } },
    env: agentEnv(home, { ...providerEnv, PATH: `${join(bin, '..')}:${process.env.PATH ?? ''}` }),
    secrets: [WORLD_TOKEN],
    timeoutMs: 180_000,
  });
  // The model called the tool (not the JSON fallback), after searching for it.
  const seen = model.requests.map((r) => [
    r.path,
    r.reply,
    JSON.stringify((r.body as { tools?: { name?: string }[] })?.tools?.map((t) => t.name ?? t) ?? []).slice(0, 600),
  ]);
  expect(model.requests.filter((r) => r.reply === 'tool').length, JSON.stringify(seen)).toBeGreaterThanOrEqual(1);
  expect(JSON.stringify(model.requests.map((r) => r.body))).toMatch(/shownOn.{0,12}the diff line/);
  expect(outcome.conclusion, outcome.reason).toBe('failure');
  expect(outcome.reason).toContain('1 blocking finding(s) open: [blocker] src/sum.ts:4 Off by one');
  const comments = w.gh.state.reviewComments(w.repo, 7);
  expect(comments.map((c) => [c.path, c.line])).toEqual([['src/sum.ts', 4]]);
  expect(comments[0]?.body).toContain('```suggestion\n  return total;\n```');
  expect(w.gh.state.checkRuns(w.repo).at(-1)).toMatchObject({ name: REVIEW_CHECK_RUN_NAME, conclusion: 'failure' });
  expect(outcome.finalMessage).toContain('Reviewed the change');
  w.gh.assertNoViolations();
}

describe('@agent review with real CLIs against the fake model', () => {
  it('Claude Code calls report_finding over MCP: the blocker is posted inline with its suggestion, the check is red', async () => {
    await reviewWith(claude, 'claude');
  });

  it('Codex calls report_finding over MCP: the blocker is posted inline with its suggestion, the check is red', async () => {
    await reviewWith(codex, 'codex');
  });
});
