import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processAdapter } from '../../src/adapters/protocols/process/process-adapter.ts';
import { agentEnvironment } from '../../src/app/agent-environment.ts';
import { readAppSettings } from '../../src/app/app-settings.ts';
import { startRun } from '../../src/core/run/start-run.ts';

const probe = new URL('../fixtures/bin/fence-probe.mjs', import.meta.url).pathname;

/** The app's environment as a deployment has it. */
const APP_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: '/home/app',
  LANG: 'C.UTF-8',
  APP_ID: 'app-id-918273645',
  PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----app-key',
  PRIVATE_KEY_PATH: '/app/private-key.pem',
  WEBHOOK_SECRET: 'webhook-secret-0123456789',
  DATABASE_URL: 'postgres://app:pw@db/agent_mux',
  PGPASSWORD: 'pg-password-0123456789',
  REDIS_URL: 'redis://:redis-pw@redis:6379',
  SENTRY_DSN: 'https://sentry-key@sentry.example/1',
  NPM_CONFIG__AUTH: 'bnBtOnNlY3JldDAxMjM0NTY3',
  GITHUB_TOKEN: 'ghs_appTokenLeak0123456789',
  GITHUB_CLIENT_SECRET: 'client-secret-0123456789',
  ANTHROPIC_API_KEY: 'sk-ant-thisAgentsKey0123456789',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/anthropic',
  OPENAI_API_KEY: 'sk-openai-anotherAgentsKey0123456789',
  MY_TOOL_HOME: '/opt/tool',
};

let dir: string | undefined;
let reportDir: string | undefined;
afterEach(async () => {
  for (const path of [dir, reportDir]) if (path) await rm(path, { recursive: true, force: true });
});

describe('the app’s agent environment (the worker’s settings: allowlist and fence)', () => {
  it('an agent that dumps its environment sees its key, its vendor’s base URL and the named extras only', async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-mux-env-'));
    const workspace = join(dir, 'work', 'run-1');
    reportDir = await mkdtemp(join(tmpdir(), 'agent-mux-report-'));
    const report = join(reportDir, 'report.json');
    await mkdir(workspace, { recursive: true });
    const settings = readAppSettings({ AGENT_MUX_AGENT_ENV: 'MY_TOOL_HOME' });
    const host = agentEnvironment(APP_ENV);
    const run = (env: Record<string, string>) =>
      startRun({
        adapter: processAdapter('prober', { binary: probe, args: [report], env, secretEnv: ['ANTHROPIC_API_KEY'] }),
        request: { prompt: 'dump', cwd: workspace },
        env: host.env,
        secretEnv: host.secretEnv,
        isolateEnv: { extra: settings.agentEnvExtra },
        fence: { kind: 'filesystem', home: `${workspace}.home`, readOnly: settings.fenceReadOnly },
        checkVersion: false,
      }).result;
    // A repository's config naming the app's credentials through templates gets nothing: the run fails.
    for (const name of ['DATABASE_URL', 'OPENAI_API_KEY', 'PGPASSWORD', 'GITHUB_TOKEN']) {
      const stolen = await run({ STOLEN: `\${${name}}` });
      expect(stolen.reason).toBe('failed');
      expect(stolen.message).toContain(`\${${name}} has no value`);
    }
    const end = await run({});
    expect(end.reason, end.message).toBe('completed');
    const seen = JSON.parse(await readFile(report, 'utf8')) as { env: Record<string, string> };
    expect(seen.env.ANTHROPIC_API_KEY).toBe(APP_ENV.ANTHROPIC_API_KEY);
    expect(seen.env.ANTHROPIC_BASE_URL).toBe(APP_ENV.ANTHROPIC_BASE_URL);
    expect(seen.env.MY_TOOL_HOME).toBe('/opt/tool');
    expect(seen.env.LANG).toBe('C.UTF-8');
    expect(seen.env.HOME).toBe(`${workspace}.home`);
    const names = Object.keys(seen.env);
    for (const name of [
      'APP_ID',
      'PRIVATE_KEY',
      'PRIVATE_KEY_PATH',
      'WEBHOOK_SECRET',
      'DATABASE_URL',
      'PGPASSWORD',
      'REDIS_URL',
      'SENTRY_DSN',
      'NPM_CONFIG__AUTH',
      'GITHUB_TOKEN',
      'GITHUB_CLIENT_SECRET',
      'OPENAI_API_KEY',
    ]) {
      expect(names, name).not.toContain(name);
    }
    const values = JSON.stringify(seen.env);
    for (const [name, value] of Object.entries(APP_ENV)) {
      if (!['PATH', 'HOME', 'LANG', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'MY_TOOL_HOME'].includes(name)) {
        expect(values, name).not.toContain(value);
      }
    }
  });

  it('settings: the fence is on unless AGENT_MUX_FENCE=off; extra names are checked', () => {
    expect(readAppSettings({}).fence).toBe('bwrap');
    expect(readAppSettings({ AGENT_MUX_FENCE: 'off' }).fence).toBe('off');
    expect(readAppSettings({ AGENT_MUX_FENCE_READ_ONLY: '/opt/a:/opt/b' }).fenceReadOnly).toEqual(['/opt/a', '/opt/b']);
    expect(() => readAppSettings({ AGENT_MUX_FENCE: 'maybe' })).toThrow(/AGENT_MUX_FENCE/);
    expect(() => readAppSettings({ AGENT_MUX_AGENT_ENV: 'OK,not-a-name' })).toThrow(/AGENT_MUX_AGENT_ENV/);
  });
});
