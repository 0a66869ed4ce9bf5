import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopLeftoverAgents } from '../../src/action/stop-leftover-agents.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { ACTION_MAIN, RUNNER_RUN_ID, readCommandFile, runnerEnv, runStep } from './run-action.ts';

const leakyAgent = new URL('../fixtures/bin/leaky-agent.mjs', import.meta.url).pathname;
const LEAKY_SECRET = 'lk_live_workflowLogSecret_9f8e7d';
const CONFIG = `
agents:
  demo:
    adapter: demo
  claude:
    adapter: claude
  leaky:
    adapter: process
    options:
      binary: ${process.execPath}
      args: [${leakyAgent}]
      secretEnv: [LEAKY_SECRET]
approvals:
  users: [bob]
  timeout: 5m
`;
const RUN_ID = `gha-${RUNNER_RUN_ID}-1`;

let world: GitHubWorld | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await stopLeftoverAgents(`${RUN_ID}/`, 'SIGKILL', { prefix: true });
  await world?.close();
  world = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Answers every approval the run asks on issue `number` as bob, until `done` settles. */
async function approveAll(w: GitHubWorld, number: number, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const answered = new Set<string>();
  while (!finished) {
    for (const c of w.gh.state.comments(w.repo, number)) {
      const id = /^<!-- agent-mux:approval:([^ ]+) -->/.exec(c.body)?.[1];
      if (id && !answered.has(id)) {
        answered.add(id);
        w.gh.state.addComment(w.repo, number, { body: `/approve ${id}`, user: 'bob' });
      }
    }
    await sleep(50);
  }
}

/** The `::error::` lines of a step's output. */
const errors = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::error::'));

describe('the Action when something goes wrong, and its job log', () => {
  it('the agent CLI cannot be installed: check run and tracking comment concluded failure with the reason, conclusion output set', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    scratch = await mkdtemp(join(tmpdir(), 'agent-mux-npm-'));
    w.gh.state.addIssue(w.repo, { number: 7, title: 'Fix it', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 7, 'alice', '@agent claude: fix it'), {
      'agent-version': '0.0.0-nonexistent',
    });
    // A registry nobody answers on, no retries: npm fails at once, as on a runner without network.
    Object.assign(files.env, {
      npm_config_registry: 'http://127.0.0.1:1/',
      npm_config_fetch_retries: '0',
      npm_config_cache: join(scratch, 'npm-cache'),
      npm_config_update_notifier: 'false',
    });
    const result = await runStep(ACTION_MAIN, files.env);
    expect(result.code, result.stdout).toBe(1);
    const [error] = errors(result.stdout);
    expect(error).toMatch(/^::error::the agent run ended failure: could not start: .*claude-code@0\.0\.0-nonexistent/);

    expect((await readCommandFile(files.output)).conclusion).toBe('failure');
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check).toMatchObject({ name: 'agent-mux / claude', status: 'completed', conclusion: 'failure' });
    expect(JSON.stringify(check?.output)).toContain('0.0.0-nonexistent');
    const tracking = w.gh.state.comments(w.repo, 7).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking?.body).toContain('could not start');
    expect(tracking?.body).toContain('0.0.0-nonexistent');
    expect(w.gh.state.reactions.map((r) => r.content)).toEqual(['eyes']);
    w.gh.assertNoViolations();
  });

  it('`agent: claud` (no such agent): fails red with a did-you-mean, never "skipped"', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 8, title: 'Fix it', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 8, 'alice', '@agent fix it'), { agent: 'claud' });
    const result = await runStep(ACTION_MAIN, files.env);
    expect(result.code, result.stdout).toBe(1);
    expect(errors(result.stdout)).toEqual(['::error::input agent: unknown agent "claud" (did you mean "claude"?)']);
    expect((await readCommandFile(files.output)).conclusion).toBe('failure');
    expect(w.gh.state.checkRuns(w.repo)).toEqual([]);
    w.gh.assertNoViolations();
  });

  it('`@agent` in a review comment on a fork’s pull request: nothing started, no request, the reason in the log and the summary', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    const payload = webhookPayload('pull_request_review_comment', 'created', {
      owner: w.repo.owner,
      repo: w.repo.repo,
      body: '@agent fix this line',
      login: 'alice',
    }) as { pull_request: { head: { repo: unknown } } };
    payload.pull_request.head.repo = { full_name: 'mallory/fork' };
    const files = await runnerEnv(w, { eventName: 'pull_request_review_comment', payload });
    const requestsBefore = w.gh.requests.length;
    const result = await runStep(ACTION_MAIN, files.env);
    expect(result.code, result.stdout).toBe(0);
    const warning = result.stdout.split('\n').find((line) => line.startsWith('::warning::'));
    expect(warning).toContain('comes from a fork (mallory/fork)');
    expect(warning).toContain('Mention @agent in the pull request’s conversation instead');
    expect(await readFile(files.summary, 'utf8')).toContain('read-only GITHUB_TOKEN and no secrets');
    expect((await readCommandFile(files.output)).conclusion).toBe('skipped');
    expect(w.gh.requests.length).toBe(requestsBefore);
  });

  it('`timeout-minutes: abc`: fails red with one line naming the input, before any request', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 9, title: 'Fix it', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 9, 'alice', '@agent fix it'), { 'timeout-minutes': 'abc' });
    const requestsBefore = w.gh.requests.length;
    const result = await runStep(ACTION_MAIN, files.env);
    expect(result.code, result.stdout).toBe(1);
    expect(errors(result.stdout)).toEqual([
      '::error::input timeout-minutes: "abc" is not a number of minutes (expected a number greater than 0 and at most 1440)',
    ]);
    expect((await readCommandFile(files.output)).conclusion).toBe('failure');
    expect(w.gh.requests.length).toBe(requestsBefore);
  });

  it('the job log shows the run as it happens: one group per step, approvals and results on their own lines, redacted', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 10, title: 'Notes', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 10, 'alice', '@agent leaky: write notes'));
    files.env.LEAKY_SECRET = LEAKY_SECRET;
    const step = runStep(ACTION_MAIN, files.env);
    await approveAll(w, 10, step);
    const result = await step;
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).not.toContain(LEAKY_SECRET);

    const lines = result.stdout.split('\n');
    const groups = lines.filter((line) => line.startsWith('::group::'));
    expect(groups.map((g) => g.replace(/^::group::\[\d\d:\d\d\] /, ''))).toEqual([
      'starting with key ***',
      'tool read_task',
      expect.stringMatching(/^task read: \d+ characters$/),
      'tool write_file',
    ]);
    expect(lines.filter((line) => line === '::endgroup::')).toHaveLength(groups.length);
    const inside = (title: string) => {
      const start = lines.findIndex((line) => line.startsWith('::group::') && line.endsWith(title));
      const end = lines.indexOf('::endgroup::', start);
      return lines.slice(start + 1, end).map((line) => line.replace(/^\[\d\d:\d\d\] /, ''));
    };
    expect(inside('tool write_file')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^input: \{"path":"NOTES\.md"/),
        expect.stringMatching(/^approval asked: write_file /),
        expect.stringMatching(/^approval \S+ granted by bob/),
        expect.stringMatching(/^done/),
        'comment: wrote NOTES.md: true (my key is ***)',
      ]),
    );
    expect(lines.some((line) => /^\[\d\d:\d\d\] run ended after \d\d:\d\d: completed$/.test(line))).toBe(true);
    expect((await readCommandFile(files.output)).conclusion).toBe('success');
    w.gh.assertNoViolations();
  });
});
