import { afterEach, describe, expect, it } from 'vitest';
import { decideTrigger } from '../../../src/github/use-cases/decide-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';

let world: GitHubWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const CONFIG = 'agents:\n  demo:\n    adapter: demo\n';

/** The operations of the requests sent since `from`. */
function reads(w: GitHubWorld, from: number) {
  return w.gh.requests.slice(from).map((r) => `${r.method} ${r.operationId}`);
}

describe('decideTrigger reads ahead what every run waits for', () => {
  it('reads the config (from the payload’s default branch) and the actor’s permission while it reads the repository', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 3, title: 'x', user: 'alice' });
    const event = commentEvent(w, 3, 'alice', '@agent demo: hello');
    const from = w.gh.requests.length;
    // Every answer takes 1 s: reads that wait for one another arrive a second or more apart.
    w.gh.setLatency(1000);
    const decision = await decideTrigger(w.deps, event);
    w.gh.setLatency(0);
    expect(decision.kind).toBe('run');
    if (decision.kind === 'run') expect(decision.job.defaultBranch).toBe('main');
    const sent = w.gh.requests.slice(from);
    const first = (op: string) => sent.find((r) => r.operationId === op);
    const repo = first('repos/get');
    const config = first('repos/get-content');
    const permission = first('repos/get-collaborator-permission-level');
    expect(repo && config && permission).toBeTruthy();
    // All three were asked before any answer came back: none waited for another.
    const at = [repo!, config!, permission!].map((r) => r.at);
    expect(Math.max(...at) - Math.min(...at)).toBeLessThan(1000);
    expect(config!.query.ref).toBe('main');
  });

  it('reads the config again from GitHub’s default branch when the payload named another', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 3, title: 'x', user: 'alice' });
    const event = commentEvent(w, 3, 'alice', '@agent demo: hello');
    (event.payload.repository as { default_branch: string }).default_branch = 'old-default';
    const from = w.gh.requests.length;
    const decision = await decideTrigger(w.deps, event);
    // The config on main names the agent demo: the run is decided on it, not on the missing branch's.
    expect(decision.kind).toBe('run');
    const refs = w.gh.requests
      .slice(from)
      .filter((r) => r.operationId === 'repos/get-content')
      .map((r) => r.query.ref);
    expect(refs).toContain('main');
    if (decision.kind === 'run') expect(decision.job.defaultBranch).toBe('main');
  });

  it('does not read the permission ahead for text without the phrase, nor for a bot', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 3, title: 'x', user: 'alice' });
    const from = w.gh.requests.length;
    expect((await decideTrigger(w.deps, commentEvent(w, 3, 'alice', 'thanks, looks good'))).kind).toBe('ignore');
    const bot = await decideTrigger(w.deps, commentEvent(w, 3, 'renovate[bot]', '@agent demo: hi', { bot: true }));
    expect(bot.kind).toBe('refused');
    expect(reads(w, from)).not.toContain('GET repos/get-collaborator-permission-level');
  });
});
