import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stopLeftoverAgents } from '../../src/action/stop-leftover-agents.ts';
import { probeFence } from '../../src/core/sandbox/index.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, WORLD_TOKEN } from '../support/github-world.ts';
import {
  ACTION_MAIN,
  ACTION_POST,
  RUNNER_RUN_ID,
  type RunnerFiles,
  readCommandFile,
  runnerEnv,
  runStep,
} from './run-action.ts';

const leakyAgent = new URL('../fixtures/bin/leaky-agent.mjs', import.meta.url).pathname;
const stubbornAgent = new URL('../fixtures/bin/stubborn-agent.mjs', import.meta.url).pathname;
const CONFIG = `
agents:
  demo:
    adapter: demo
  leaky:
    adapter: process
    options:
      binary: ${process.execPath}
      args: [${leakyAgent}]
  stubborn:
    adapter: process
    options:
      binary: ${process.execPath}
      args: [${stubbornAgent}]
approvals:
  timeout: 5m
`;
const RUN_ID = `gha-${RUNNER_RUN_ID}-1`;

let world: GitHubWorld | undefined;
afterEach(async () => {
  await stopLeftoverAgents(`${RUN_ID}/`, 'SIGKILL', { prefix: true });
  await world?.close();
  world = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the run asked for an approval on the fake GitHub; returns its id. */
async function approvalAsked(w: GitHubWorld, number: number): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const asked = w.gh.state.comments(w.repo, number).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    const id = asked && /agent-mux:approval:([^ ]+) -->/.exec(asked.body)?.[1];
    if (id) return id;
    await sleep(50);
  }
  throw new Error('no approval was asked');
}

/** Pids of processes still carrying the run's marker (signal 0 only checks). */
const leftovers = () => stopLeftoverAgents(`${RUN_ID}/`, 0 as unknown as NodeJS.Signals, { prefix: true });

/** The marked processes once their number is `expected` (a dying PID namespace takes a moment), or after 3 s. */
async function settledLeftovers(expected: number): Promise<number[]> {
  let found = await leftovers();
  for (let i = 0; i < 60 && found.length !== expected; i++) {
    await sleep(50);
    found = await leftovers();
  }
  return found;
}

describe('the Action run as the runner runs it (its sources, or AGENT_MUX_ACTION_DIST’s bundle)', () => {
  it('runs the demo agent from an issue comment: approval by comment, branch, PR, outputs, job summary', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 12, title: 'Fix the README typo', body: 'It says projcet.', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 12, 'alice', '@agent fix the typo'), { agent: 'demo' });
    const step = runStep(ACTION_MAIN, files.env);
    const id = await approvalAsked(w, 12);
    w.gh.state.addComment(w.repo, 12, { body: `/approve ${id}`, user: 'bob' });
    const result = await step;
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);

    const outputs = await readCommandFile(files.output);
    expect(outputs).toMatchObject({
      conclusion: 'success',
      branch: 'agent-mux/12-fix-the-readme-typo',
      'pull-request-url': expect.stringMatching(/^https:\/\/github\.com\/octo\/demo\/pull\/\d+$/),
      'input-tokens': '1200',
      'output-tokens': '180',
    });
    expect(JSON.parse(outputs.approvals ?? '[]')).toEqual([
      expect.objectContaining({ decision: 'approved', by: 'bob' }),
    ]);
    expect(await w.git(['show', 'agent-mux/12-fix-the-readme-typo:README.md'], w.bare)).toContain('This project');

    const summary = await readFile(files.summary, 'utf8');
    expect(summary).toContain('```mermaid');
    expect(summary).toMatch(/demo/);
    expect(result.stdout).toContain('::notice');
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check).toMatchObject({ name: 'agent-mux / demo', status: 'completed', conclusion: 'success' });
    expect(check?.detailsUrl).toBe(`https://github.com/octo/demo/actions/runs/${RUNNER_RUN_ID}`);
    for (const request of w.gh.requests) expect(JSON.stringify(request.body ?? '')).not.toContain(WORLD_TOKEN);
    // The runner masks what `::add-mask::` names; nothing else may print the token.
    const printed = result.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    expect(printed.join('\n')).not.toContain(WORLD_TOKEN);
    w.gh.assertNoViolations();
  });

  it('an event that asks for nothing: conclusion skipped, exit 0, no writes', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 2, title: 'x', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 2, 'alice', 'just a comment'));
    const result = await runStep(ACTION_MAIN, files.env);
    expect(result.code).toBe(0);
    expect((await readCommandFile(files.output)).conclusion).toBe('skipped');
    expect(w.gh.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    w.gh.assertNoViolations();
  });

  it('`@agent cancel` from another comment cancels the workflow run in flight for that issue', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 6, title: 'Notes', user: 'alice' });
    w.gh.state.addWorkflowRun(w.repo, { id: Number(RUNNER_RUN_ID), status: 'in_progress' });
    const files = await runnerEnv(w, commentEvent(w, 6, 'alice', '@agent leaky: write notes'));
    let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
    const step = runStep(ACTION_MAIN, files.env, (c) => {
      child = c;
    });
    await approvalAsked(w, 6);

    const cancelFiles = await runnerEnv(w, commentEvent(w, 6, 'alice', '@agent cancel'));
    cancelFiles.env.GITHUB_RUN_ID = '4343';
    const cancel = await runStep(ACTION_MAIN, cancelFiles.env);
    expect(cancel.code, cancel.stdout).toBe(0);
    expect(cancel.stdout).toContain(`cancelled workflow runs ${RUNNER_RUN_ID}`);
    expect(w.gh.state.workflowRun(Number(RUNNER_RUN_ID))?.status).not.toBe('in_progress');
    child?.kill('SIGTERM'); // what the runner does to a cancelled run
    await step;
    w.gh.assertNoViolations();
  });
});

/**
 * Cancelling and killing the step, with the agent in its PID namespace (bwrap works: the default
 * where it does) and without it (bwrap refused, as where user namespaces are not allowed: the
 * Action warns and falls back to the group kill plus the post step's clean-up).
 */
const fenceWorks = (await probeFence({ kind: 'processes' }, tmpdir())).ok;
describe.each([
  {
    mode: 'fenced',
    skip: !fenceWorks,
    // bwrap, the namespace's init (bwrap), the agent and its grandchild all carry the marker.
    runningMarked: 4,
    // --die-with-parent: the namespace dies with the killed step; nothing is left for the post step.
    leftAfterKill: 0,
  },
  {
    mode: 'unfenced (bwrap refused, fence: off chosen)',
    skip: false,
    runningMarked: 2, // the agent and its grandchild
    leftAfterKill: 2, // both outlive the killed step until the post step stops them
  },
])('cancelling and killing the Action ($mode)', ({ mode, skip, runningMarked, leftAfterKill }) => {
  const unfenced = mode !== 'fenced';
  /** The runner's environment, with a `bwrap` first on PATH that fails as a refused user namespace does. */
  async function stepEnv(w: GitHubWorld, number: number): Promise<RunnerFiles> {
    const files = await runnerEnv(w, commentEvent(w, number, 'alice', '@agent stubborn: write notes'));
    if (unfenced) {
      const bin = join(files.dir, 'refused-bwrap');
      await mkdir(bin);
      await writeFile(
        join(bin, 'bwrap'),
        '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
        { mode: 0o755 },
      );
      files.env.PATH = `${bin}:${files.env.PATH}`;
      // Without a working fence the agent starts only when the workflow opts out explicitly.
      files.env.INPUT_FENCE = 'off';
    }
    return files;
  }

  it.skipIf(skip)(
    'SIGTERM mid-run (the workflow run is cancelled): no agent process left, check run and comment concluded cancelled',
    async () => {
      const w = await createGitHubWorld({ config: CONFIG });
      world = w;
      w.gh.state.addIssue(w.repo, { number: 4, title: 'Notes', user: 'alice' });
      const files = await stepEnv(w, 4);
      let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
      const step = runStep(ACTION_MAIN, files.env, (c) => {
        child = c;
      });
      await approvalAsked(w, 4);
      expect((await leftovers()).length).toBe(runningMarked);
      const stoppedAt = Date.now();
      child?.kill('SIGTERM');
      const result = await step;
      const exitMs = Date.now() - stoppedAt;
      // The runner allows 7.5 s after SIGINT and 2.5 s after SIGTERM before SIGKILL.
      expect(exitMs, `exited ${exitMs} ms after SIGTERM`).toBeLessThan(10_000);
      expect(result.code).toBe(1);
      expect(result.stdout.includes('fence: off — the agent runs unfenced'), result.stdout).toBe(unfenced);
      expect(await leftovers()).toEqual([]);
      expect((await readCommandFile(files.output)).conclusion).toBe('cancelled');
      const [check] = w.gh.state.checkRuns(w.repo);
      expect(check).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
      const tracking = w.gh.state.comments(w.repo, 4).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
      expect(tracking?.body).toMatch(/cancelled/i);
      w.gh.assertNoViolations();
    },
  );

  it.skipIf(skip)(
    'the post step cleans up after a main step killed outright: agent stopped, check run concluded',
    async () => {
      const w = await createGitHubWorld({ config: CONFIG });
      world = w;
      w.gh.state.addIssue(w.repo, { number: 5, title: 'Notes', user: 'alice' });
      const files = await stepEnv(w, 5);
      let child: { kill(signal: NodeJS.Signals): boolean } | undefined;
      const step = runStep(ACTION_MAIN, files.env, (c) => {
        child = c;
      });
      await approvalAsked(w, 5);
      expect((await leftovers()).length).toBe(runningMarked);
      child?.kill('SIGKILL');
      await step;
      expect((await settledLeftovers(leftAfterKill)).length).toBe(leftAfterKill);
      expect(w.gh.state.checkRuns(w.repo)[0]?.status).toBe('in_progress');

      const state = await readCommandFile(files.state);
      expect(state).toMatchObject({ runId: RUN_ID, checkRunId: expect.any(String) });
      const postEnv = { ...files.env };
      for (const [name, value] of Object.entries(state)) postEnv[`STATE_${name}`] = value;
      const post = await runStep(ACTION_POST, postEnv);
      expect(post.code, post.stdout).toBe(0);
      expect(await leftovers()).toEqual([]);
      expect(w.gh.state.checkRuns(w.repo)[0]).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
      const tracking = w.gh.state.comments(w.repo, 5).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
      expect(tracking?.body).toContain('**Stopped:**');
      w.gh.assertNoViolations();
    },
  );
});

/** A `bwrap` stand-in that refuses as Ubuntu 24.04's AppArmor does until `lifted` exists, then runs the real one. */
async function refusingBwrap(dir: string, lifted: string): Promise<string> {
  const bin = join(dir, 'stand-ins');
  await mkdir(bin, { recursive: true });
  const real = (await probeFence({ kind: 'processes' }, tmpdir())).ok ? '/usr/bin/bwrap' : '';
  await writeFile(
    join(bin, 'bwrap'),
    `#!/bin/sh\nif [ -e ${JSON.stringify(lifted)} ] && [ -n "${real}" ]; then exec ${real || 'false'} "$@"; fi\n` +
      'echo "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n',
    { mode: 0o755 },
  );
  return bin;
}

describe('the Action where the fence cannot work (issue 31: ubuntu-24.04 refuses user namespaces)', () => {
  it('self-hosted: the host is left alone, the agent is not started, the run fails with the reason (no ✅)', async () => {
    const w = await createGitHubWorld({ config: CONFIG });
    world = w;
    w.gh.state.addIssue(w.repo, { number: 31, title: 'Notes', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 31, 'alice', '@agent leaky: write notes'));
    const bin = await refusingBwrap(files.dir, join(files.dir, 'never'));
    // A sudo that records being called: a self-hosted runner's host is never changed.
    const called = join(files.dir, 'sudo-called');
    await writeFile(join(bin, 'sudo'), `#!/bin/sh\nprintf "%s\\n" "$*" >> ${JSON.stringify(called)}\nexit 0\n`, {
      mode: 0o755,
    });
    files.env.PATH = `${bin}:${files.env.PATH}`;
    files.env.RUNNER_ENVIRONMENT = 'self-hosted';
    const result = await runStep(ACTION_MAIN, files.env);
    expect(result.code).toBe(1);
    expect((await readCommandFile(files.output)).conclusion).toBe('failure');
    const [check] = w.gh.state.checkRuns(w.repo);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(JSON.stringify(check)).toContain('the agent was not started: its fence cannot be set up');
    expect(JSON.stringify(check)).toContain('setting up uid map: Permission denied');
    const tracking = w.gh.state.comments(w.repo, 31).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking?.body).toContain('fence: off');
    expect(w.gh.state.comments(w.repo, 31).some((c) => c.body.startsWith('<!-- agent-mux:approval:'))).toBe(false);
    expect(await leftovers()).toEqual([]);
    await expect(readFile(called, 'utf8')).rejects.toThrow();
    w.gh.assertNoViolations();
  });

  it.skipIf(!fenceWorks)(
    'GitHub-hosted: agent-mux lifts the AppArmor restriction with sudo, then the agent runs fenced',
    async () => {
      const w = await createGitHubWorld({ config: CONFIG });
      world = w;
      w.gh.state.addIssue(w.repo, { number: 32, title: 'Greeting', body: 'Add one.', user: 'alice' });
      const files = await runnerEnv(w, commentEvent(w, 32, 'alice', '@agent fix the typo'), { agent: 'demo' });
      const lifted = join(files.dir, 'lifted');
      const bin = await refusingBwrap(files.dir, lifted);
      const called = join(files.dir, 'sudo-called');
      await writeFile(
        join(bin, 'sudo'),
        `#!/bin/sh\nprintf "%s\\n" "$*" >> ${JSON.stringify(called)}\ncase "$*" in *apparmor_restrict_unprivileged_userns=0*) touch ${JSON.stringify(lifted)};; esac\nexit 0\n`,
        { mode: 0o755 },
      );
      files.env.PATH = `${bin}:${files.env.PATH}`;
      files.env.RUNNER_ENVIRONMENT = 'github-hosted';
      const step = runStep(ACTION_MAIN, files.env);
      const id = await approvalAsked(w, 32);
      w.gh.state.addComment(w.repo, 32, { body: `/approve ${id}`, user: 'bob' });
      const result = await step;
      expect(result.code, result.stdout).toBe(0);
      expect(await readFile(called, 'utf8')).toContain('-n sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
      expect(result.stdout).toContain('lifted the AppArmor restriction of unprivileged user namespaces');
      expect((await readCommandFile(files.output)).conclusion).toBe('success');
      w.gh.assertNoViolations();
    },
  );
});
