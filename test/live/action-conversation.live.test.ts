import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_MAIN, readCommandFile, runnerEnv, runStep } from '../action/run-action.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import { spec as claude } from './specs/claude.live.ts';

// The Action as a runner runs it (`node dist/index.js`), twice, with Claude Code 2.1.330 against
// the fake model server and the cache stand-in: a mention on an issue, then a follow-up on the pull
// request it opened, each on a "fresh runner" (an empty HOME). The second run restores the first
// run's session from the Actions cache and resumes it: the model's request carries the first turn.

const CONFIG = `
agents:
  claude:
    adapter: claude
`;

let world: GitHubWorld | undefined;
let model: FakeModelServer | undefined;
let cache: FakeActionsCache | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await world?.close();
  await model?.close();
  await cache?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  world = undefined;
  model = undefined;
  cache = undefined;
});

/** An empty HOME where the live suite keeps them (not under /tmp, which a CLI may refuse). */
function freshHome(): string {
  const base = join(homedir(), '.cache', 'agent-mux', 'live-homes');
  mkdirSync(base, { recursive: true });
  const home = mkdtempSync(join(base, 'agent-mux-action-conversation-'));
  dirs.push(home);
  return home;
}

describe('the Action, bundled, carries a conversation between two workflow runs', () => {
  it('a mention on an issue, then a follow-up on a fresh runner that resumes the Claude session from the Actions cache', async () => {
    const bin = await installCli(claude);
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    model = await startFakeModelServer({ case: 'resume' });
    cache = await startFakeActionsCache();
    // Hosted runners give every job the same RUNNER_TEMP path (the cache ties an entry to its paths).
    const runnerTemp = mkdtempSync(join(homedir(), '.cache', 'agent-mux', 'runner-temp-'));
    dirs.push(runnerTemp);

    let runs = 0;
    const step = async (event: ReturnType<typeof commentEvent>) => {
      const files = await runnerEnv(w, event, { agent: 'claude', 'anthropic-api-key': 'sk-ant-fake-live-key' });
      dirs.push(files.dir);
      const result = await runStep(ACTION_MAIN, {
        ...files.env,
        ...cache?.env,
        // Each workflow run has its own id (a run of the same id is a re-run of the same turn).
        GITHUB_RUN_ID: String(5000 + ++runs),
        HOME: freshHome(),
        RUNNER_TEMP: runnerTemp,
        PATH: `${dirname(bin)}:${files.env.PATH}`,
        ANTHROPIC_BASE_URL: model?.url ?? '',
      });
      return { result, outputs: await readCommandFile(files.output) };
    };

    w.gh.state.addIssue(w.repo, { number: 31, title: 'Remember a number', body: 'For later.', user: 'alice' });
    const first = await step(commentEvent(w, 31, 'alice', '@agent Remember the number 42.'));
    expect(first.result.code, first.result.stdout.slice(-3000)).toBe(0);
    expect(first.outputs.conclusion).toBe('success');
    expect(first.result.stdout).toMatch(/conversation octo\/demo#31 \(claude\): saved session [0-9a-f-]{36}/);

    // Claude only answered (no commit, no pull request): the follow-up is on the issue.
    const before = model.requests.length;
    const second = await step(commentEvent(w, 31, 'bob', '@agent What number did I ask you to remember?'));
    expect(second.result.code, second.result.stdout.slice(-3000)).toBe(0);
    expect(second.outputs.conclusion).toBe('success');
    const notes = second.result.stdout
      .split('\n')
      .filter((line) => /conversation|session|turn|cache/i.test(line) && !line.startsWith('::debug'))
      .join('\n');
    expect(second.result.stdout, notes).toMatch(
      /conversation octo\/demo#31 \(claude\): restored session [0-9a-f-]{36} \(turn 1/,
    );

    // The resumed session's request holds the first turn as messages, not as a summary in the prompt.
    const asking = model.requests
      .slice(before)
      .map((r) => r.body as { messages?: { role: string; content: unknown }[] })
      .filter((body) => JSON.stringify(body.messages ?? []).includes('What number did I ask you to remember?'));
    expect(asking.length).toBeGreaterThan(0);
    const resumed = asking.find((body) => JSON.stringify(body.messages?.[0]).includes('Remember the number 42.'));
    expect(resumed, JSON.stringify(asking).slice(0, 2000)).toBeDefined();
    expect(JSON.stringify(resumed)).not.toContain('Earlier turns of this conversation');
    expect(w.gh.state.checkRuns(w.repo).map((c) => c.name)).toEqual([
      'agent-mux / claude',
      'agent-mux / claude (turn 2)',
    ]);
    expect(cache.violations).toEqual([]);
    w.gh.assertNoViolations();
  });
});
