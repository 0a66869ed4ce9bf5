import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopLeftoverAgents } from '../../src/action/stop-leftover-agents.ts';
import { type FakeActionsCache, startFakeActionsCache } from '../support/fake-actions-cache/fake-actions-cache.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { referenceWorkerConfig } from '../support/reference-agent-config.ts';
import { ACTION_MAIN, RUNNER_RUN_ID, readCommandFile, runnerEnv, runStep } from './run-action.ts';

// Issue 37.2 in the Action as the runner runs it: a daily limit of this repository kept in the
// Actions cache (the fake service) across two workflow runs. The reference Process-protocol agent
// reports 1,150 tokens and then 1,100 a step (2 steps: 3,350 in all); the day allows 3,000.
const CONFIG = `${referenceWorkerConfig(2)}
tools:
  policy: { default: allow }
limits:
  budget:
    daily: { tokens: 3000 }
approvals:
  timeout: 1m
`;

let world: GitHubWorld | undefined;
let cache: FakeActionsCache | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await stopLeftoverAgents(`gha-${RUNNER_RUN_ID}`, 'SIGKILL', { prefix: true });
  await world?.close();
  await cache?.close();
  world = undefined;
  cache = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a daily limit across two workflow runs (the Action, the Actions cache stand-in)', () => {
  it('the first run pauses at the day’s limit and a writer raises it; the second does not start and says when the limit resets', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    cache = await startFakeActionsCache();
    // Hosted runners give every job the same RUNNER_TEMP path (the cache ties an entry to its paths).
    const runnerTemp = mkdtempSync(join(tmpdir(), 'agent-mux-runner-temp-'));
    dirs.push(runnerTemp);
    let runs = 0;
    const step = async (number: number, text: string) => {
      const files = await runnerEnv(w, commentEvent(w, number, 'alice', text));
      dirs.push(files.dir);
      const result = await runStep(ACTION_MAIN, {
        ...files.env,
        ...cache?.env,
        GITHUB_RUN_ID: String(7000 + ++runs),
        RUNNER_TEMP: runnerTemp,
      });
      return { result, outputs: await readCommandFile(files.output) };
    };

    w.gh.state.addIssue(w.repo, { number: 51, title: 'First', body: '', user: 'alice' });
    const first = step(51, '@agent worker: say hello');
    let asked = '';
    for (let i = 0; i < 600 && !asked; i++) {
      asked = w.gh.state.comments(w.repo, 51).find((c) => c.body.includes('reached its budget'))?.body ?? '';
      if (!asked) await sleep(50);
    }
    expect(asked).toContain('of its **3,000 tokens** budget (today: ');
    expect(asked).toContain('tokens for this repository)');
    w.gh.state.addComment(w.repo, 51, { body: '/budget 10000 tokens', user: 'alice' });
    const one = await first;
    expect(one.result.code, one.result.stdout.slice(-3000)).toBe(0);
    expect(one.outputs.conclusion).toBe('success');
    expect(w.gh.state.comments(w.repo, 51).find((c) => c.body.includes('reached its budget'))?.body).toContain(
      '✅ Raised to **10,000 tokens** by @alice',
    );

    w.gh.state.addIssue(w.repo, { number: 61, title: 'Second', body: '', user: 'alice' });
    const two = await step(61, '@agent worker: say hello again');
    expect(two.result.code, two.result.stdout.slice(-3000)).toBe(0);
    const refusal = w.gh.state.comments(w.repo, 61).find((c) => c.body.includes('did not start'))?.body ?? '';
    expect(refusal).toMatch(
      /agent-mux did not start: this repository has spent 3,350 of its 3,000 daily tokens today; the limit resets at 00:00 UTC, in \d+ (h \d+ )?min\./,
    );
    // No agent ran: no second check run.
    expect(w.gh.state.checkRuns(w.repo)).toHaveLength(1);
    expect(cache.violations).toEqual([]);
    w.gh.assertNoViolations();
  }, 120_000);
});
