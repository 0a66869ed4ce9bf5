import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { run } from '../../src/action/run.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, WORLD_TOKEN } from '../support/github-world.ts';
import { readCommandFile, runnerEnv } from './run-action.ts';

const probe = new URL('../fixtures/bin/fence-probe.mjs', import.meta.url).pathname;
const recorder = new URL('../fixtures/bin/task-recorder.mjs', import.meta.url).pathname;

/** Credentials a runner step may hold that the agent must never see. */
const HOST_SECRETS: Record<string, string> = {
  GITHUB_TOKEN: WORLD_TOKEN,
  GH_TOKEN: 'ghs_ghTokenOfTheWorkflow0123456789',
  ACTIONS_RUNTIME_TOKEN: 'runtime-token-0123456789',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-token-0123456789',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions.example/oidc',
  ACTIONS_CACHE_URL: 'https://cache.actions.example/',
  DATABASE_URL: 'postgres://user:pw@db/app',
  PGPASSWORD: 'pg-password-0123456789',
  REDIS_URL: 'redis://:pw@redis:6379',
  SENTRY_DSN: 'https://key@sentry.example/1',
  NPM_CONFIG__AUTH: 'bnBtOnNlY3JldA==',
};

let world: GitHubWorld | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await world?.close();
  world = undefined;
});

describe('the Action gives the agent an environment built from an allowlist', () => {
  it('an agent that dumps its environment sees its own key, PATH and HOME, and no token, other key or input', async () => {
    const w = await createGitHubWorld();
    world = w;
    w.gh.state.addIssue(w.repo, { number: 7, title: 'Dump', body: 'env', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 7, 'alice', '@agent dump'), {
      agent: 'dumper',
      'anthropic-api-key': 'sk-ant-agentKey0123456789',
      'openai-api-key': 'sk-openai-otherAgent0123456789',
    });
    // Not under RUNNER_TEMP nor /tmp: the agent's fence hides the one and gives it its own other.
    await mkdir(join(homedir(), '.cache'), { recursive: true });
    const reports = await mkdtemp(join(homedir(), '.cache', 'agent-mux-dump-'));
    onTestFinished(() => rm(reports, { recursive: true, force: true }));
    const report = join(reports, 'report.json');
    const config = `
agents:
  dumper:
    adapter: process
    options:
      binary: ${probe}
      args: [${report}, "read:/proc/${process.pid}/environ", "read:/proc/${process.ppid}/environ"]
      secretEnv: [ANTHROPIC_API_KEY]
`;
    await w.commit('main', { '.github/agent-mux.yml': config });
    const env = { ...files.env, ...HOST_SECRETS, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/anthropic', LANG: 'C.UTF-8' };
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    await run(env);

    const outputs = await readCommandFile(files.output);
    expect(outputs.conclusion, JSON.stringify(outputs)).toBe('success');
    const seen = JSON.parse(await readFile(report, 'utf8')) as { env: Record<string, string> } & Record<string, string>;
    const names = Object.keys(seen.env);
    expect(seen.env.ANTHROPIC_API_KEY).toBe('sk-ant-agentKey0123456789');
    expect(seen.env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9/anthropic');
    expect(seen.env.PATH).toBeDefined();
    expect(seen.env.LANG).toBe('C.UTF-8');
    for (const name of Object.keys(HOST_SECRETS)) expect(names).not.toContain(name);
    expect(names).not.toContain('OPENAI_API_KEY');
    expect(names.filter((name) => name.startsWith('INPUT_'))).toEqual([]);
    for (const name of ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_EVENT_PATH', 'GITHUB_STEP_SUMMARY']) {
      expect(names).not.toContain(name);
    }
    const values = JSON.stringify(seen.env);
    for (const secret of [WORLD_TOKEN, 'sk-openai-otherAgent0123456789', ...Object.values(HOST_SECRETS)]) {
      expect(values).not.toContain(secret);
    }
    // The step's own process (its environment holds every input) is outside the agent's PID namespace.
    expect(seen[`read:/proc/${process.pid}/environ`]).not.toBe('ok');
    expect(seen[`read:/proc/${process.ppid}/environ`]).not.toBe('ok');
  });

  it('issue 33.12: model, instructions and agent-env reach the agent; agent-env secrets are redacted, never-names refused', async () => {
    const w = await createGitHubWorld();
    world = w;
    w.gh.state.addIssue(w.repo, { number: 8, title: 'Record', body: 'task', user: 'alice' });
    const files = await runnerEnv(w, commentEvent(w, 8, 'alice', '@agent record what you get'), {
      agent: 'recorder',
      model: 'claude-opus-4-1',
      instructions: 'Run npm test before you commit.',
      'agent-env': 'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY AWS_REGION',
    });
    await mkdir(join(homedir(), '.cache'), { recursive: true });
    const reports = await mkdtemp(join(homedir(), '.cache', 'agent-mux-record-'));
    onTestFinished(() => rm(reports, { recursive: true, force: true }));
    const report = join(reports, 'report.json');
    const config = `
agents:
  recorder:
    adapter: process
    model: claude-sonnet-4-5
    options:
      binary: ${recorder}
      args: [${report}]
      env: { RECORDER_LEAK: AWS_SECRET_ACCESS_KEY }
`;
    await w.commit('main', { '.github/agent-mux.yml': config });
    const secret = 'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY';
    const env = {
      ...files.env,
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: secret,
      AWS_REGION: 'us-east-1',
      AWS_PROFILE: 'not-asked-for',
    };
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    await run(env);

    const outputs = await readCommandFile(files.output);
    expect(outputs.conclusion, JSON.stringify(outputs)).toBe('success');
    const seen = JSON.parse(await readFile(report, 'utf8')) as {
      task: { value: { prompt: string; model?: string } };
      env: Record<string, string>;
    };
    expect(seen.task.value.model).toBe('claude-opus-4-1');
    expect(seen.task.value.prompt).toContain(
      "Instructions from this repository's workflow (they apply to every run):\nRun npm test before you commit.",
    );
    expect(seen.env.AWS_SECRET_ACCESS_KEY).toBe(secret);
    expect(seen.env.AWS_REGION).toBe('us-east-1');
    expect(seen.env.AWS_PROFILE).toBeUndefined();
    // The agent printed the secret: redacted in everything agent-mux wrote to GitHub.
    const written = w.gh.requests.map((r) => JSON.stringify(r.body ?? '')).join('\n');
    expect(written).toContain('the key is ***');
    expect(written).not.toContain(secret);
    const check = w.gh.state.checkRuns(w.repo)[0];
    expect(check?.output?.summary ?? '').toContain('claude-opus-4-1');
  });

  it('agent-env refuses agent-mux’s own credentials and names that are not variables', async () => {
    const { readActionInputs } = await import('../../src/action/action-inputs.ts');
    const inputs = (values: Record<string, string>) => (name: string) =>
      ({ 'github-token': 'ghs_x', ...values })[name] ?? '';
    expect(() => readActionInputs(inputs({ 'agent-env': 'AWS_REGION,GITHUB_TOKEN' }))).toThrow(
      'input agent-env: GITHUB_TOKEN is never given to an agent',
    );
    expect(() => readActionInputs(inputs({ 'agent-env': 'ACTIONS_RUNTIME_TOKEN' }))).toThrow(/never given/);
    expect(() => readActionInputs(inputs({ 'agent-env': 'A-B' }))).toThrow('"A-B" is not an environment variable name');
    expect(readActionInputs(inputs({ 'agent-env': ' A, B  C ' })).agentEnv).toEqual(['A', 'B', 'C']);
  });
});
