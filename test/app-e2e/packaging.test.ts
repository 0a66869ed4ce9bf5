import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { READINESS_PATH } from '../../src/app/app-readiness.ts';
import { readAppSettings } from '../../src/app/app-settings.ts';
import { HANDLED_EVENTS } from '../../src/app/record-webhooks.ts';
import { isRecord, loadGitHubDescription } from '../support/fake-github/openapi-document.ts';
import { webhookExamples } from '../support/webhook-payload.ts';
import { REPO_ROOT } from './probot-process.ts';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** Splits a Dockerfile into build stages of instructions (continuation lines joined, comments dropped). */
function dockerStages(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push((pending + line).trim());
    pending = '';
  }
  const stages: Stage[] = [];
  for (const line of logical) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', as, name] = args.split(/\s+/);
      stages.push({ from: image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (stage === undefined) throw new Error(`instruction before FROM: ${line}`);
    stage.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

const all = (stage: Stage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const deps = stages.find((s) => s.name === 'deps');
  const runtime = stages.at(-1);

  it('has a deps stage and a runtime stage, both on node:24-bookworm-slim', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'runtime']);
    for (const stage of stages) expect(stage.from).toBe('node:24-bookworm-slim');
  });

  it('installs production dependencies only, from the lockfile', () => {
    const runs = all(deps!, 'RUN').join('\n');
    expect(runs).toMatch(/\bnpm ci --omit=dev\b/);
    expect(all(deps!, 'COPY')).toContain('package.json package-lock.json ./');
  });

  it('runs as a non-root user with git installed, a data volume and port 3000', () => {
    const runs = all(runtime!, 'RUN').join('\n');
    expect(runs).toMatch(/apt-get install[^\n]*\bgit\b/);
    const users = all(runtime!, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));
    expect(all(runtime!, 'VOLUME').join(' ')).toContain('/app/data');
    expect(all(runtime!, 'EXPOSE')).toEqual(['3000']);
    const env = all(runtime!, 'ENV').join(' ');
    expect(env).toContain('HOST=0.0.0.0');
    expect(env).toContain('AGENT_MUX_DATA_DIR=/app/data');
  });

  it('copies node_modules from the deps stage and starts the app with probot run', () => {
    expect(all(runtime!, 'COPY').some((c) => /--from=deps\b.*\/app\/node_modules/.test(c))).toBe(true);
    const cmd = all(runtime!, 'CMD');
    expect(cmd).toHaveLength(1);
    expect(JSON.parse(cmd[0]!)).toEqual(['node', 'node_modules/probot/bin/probot.js', 'run', './src/app/index.ts']);
    expect(existsSync(join(REPO_ROOT, 'node_modules/probot/bin/probot.js'))).toBe(true);
  });

  it('its health check probes the app’s readiness endpoint, not Probot’s /ping (which answers while the app cannot work)', () => {
    const checks = all(runtime!, 'HEALTHCHECK');
    expect(checks).toHaveLength(1);
    expect(checks[0]).toContain(`'${READINESS_PATH}'`);
    expect(checks[0]).not.toContain('/ping');
  });

  it('copies only files that exist and that .dockerignore keeps in the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#') && !l.startsWith('!'));
    const isIgnored = picomatch(ignored, { dot: true });
    const sources = all(runtime!, 'COPY')
      .concat(all(deps!, 'COPY'))
      .filter((c) => !c.includes('--from='))
      .flatMap((c) => {
        const parts = c.split(/\s+/).filter((p) => !p.startsWith('--'));
        return parts.slice(0, -1);
      });
    expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'src', 'app.yml']));
    for (const source of sources) {
      expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
      expect(isIgnored(source), `${source} is excluded by .dockerignore`).toBe(false);
    }
    for (const secret of ['.env', 'key.pem', '.git', 'node_modules', 'data']) {
      expect(isIgnored(secret), `${secret} should be ignored`).toBe(true);
    }
  });
});

describe('app.yml', () => {
  const manifest: unknown = parse(read('app.yml'));
  const record = isRecord(manifest) ? manifest : {};

  it('names the app and its homepage, and is private', () => {
    expect(record.name).toBe('agent-mux');
    expect(record.url).toBe('https://github.com/agent-mux/agent-mux');
    expect(record.public).toBe(false);
  });

  it('leaves the webhook URL to Probot’s setup (a hook_attributes block replaces Probot’s WEBHOOK_PROXY_URL)', () => {
    expect(record).not.toHaveProperty('hook_attributes');
  });

  it('subscribes to the events the app handles, each a real webhook event', () => {
    const events = record.default_events;
    expect(events).toEqual([
      'issue_comment',
      'pull_request_review_comment',
      'pull_request_review',
      'pull_request',
      'issues',
      'check_run',
    ]);
    for (const event of events as string[]) expect(webhookExamples(event).length, event).toBeGreaterThan(0);
  });

  it('subscribes to exactly the events the app records', () => {
    const handled = new Set(HANDLED_EVENTS.map((e) => e.split('.')[0]));
    expect([...handled].sort()).toEqual([...(record.default_events as string[])].sort());
  });

  it('asks for exactly the permissions it needs, each valid in GitHub app-permissions', () => {
    expect(record.default_permissions).toEqual({
      contents: 'write',
      issues: 'write',
      pull_requests: 'write',
      checks: 'write',
      metadata: 'read',
      members: 'read',
    });
    const schema = loadGitHubDescription().components.schemas?.['app-permissions'];
    const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
    for (const [name, level] of Object.entries(record.default_permissions as Record<string, string>)) {
      const property = properties[name];
      expect(isRecord(property) ? property.enum : undefined, name).toContain(level);
    }
  });
});

describe('.env.example', () => {
  const text = read('.env.example');
  const values = parseEnv(text);

  it.each([
    'APP_ID',
    'PRIVATE_KEY',
    'PRIVATE_KEY_PATH',
    'WEBHOOK_SECRET',
    'WEBHOOK_PROXY_URL',
    'DATABASE_URL',
    'AGENT_MUX_WORKERS',
    'AGENT_MUX_DATA_DIR',
    'AGENT_MUX_WORK_DIR',
    'AGENT_MUX_MAX_WORKSPACE_MB',
    'LOG_LEVEL',
    'PORT',
  ])('documents %s with a comment above it', (name) => {
    expect(values).toHaveProperty(name);
    const lines = text.split('\n');
    const index = lines.findIndex((l) => l.startsWith(`${name}=`));
    expect(lines[index - 1] ?? '').toMatch(/^#/);
  });

  it('holds no credentials', () => {
    for (const name of ['APP_ID', 'PRIVATE_KEY', 'WEBHOOK_SECRET', 'DATABASE_URL']) expect(values[name]).toBe('');
  });
});

describe('.env.example and the app settings', () => {
  it('lists every AGENT_MUX_ variable the app reads, and only those', () => {
    const documented = Object.keys(parseEnv(read('.env.example'))).filter((n) => n.startsWith('AGENT_MUX_'));
    const settings = new Set(read('src/app/app-settings.ts').match(/\bAGENT_MUX_[A-Z_]+\b/g) ?? []);
    expect(documented.sort()).toEqual([...settings].sort());
  });

  it('is accepted by readAppSettings as written', () => {
    const settings = readAppSettings(parseEnv(read('.env.example')));
    expect(settings).toMatchObject({ databaseUrl: undefined, workers: 2, gitBaseUrl: 'https://github.com' });
  });
});
