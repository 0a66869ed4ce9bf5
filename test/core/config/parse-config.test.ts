import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../../src/core/config/index.ts';
import { ConfigError, type ConfigIssue } from '../../../src/core/errors/index.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/config/${name}`, import.meta.url));

/** The ConfigError `parseConfig` throws for this text. */
function errorOf(text: string, file = 'config.json'): ConfigError {
  try {
    parseConfig(text, file);
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function issueAt(error: ConfigError, path: string): ConfigIssue {
  const issue = error.issues.find((i) => i.path === path);
  if (!issue) throw new Error(`no issue at ${path}; issues: ${error.message}`);
  return issue;
}

/** A JSON config with one HTTP adapter whose fields can be replaced; line numbers noted. */
function httpConfig(fields: Record<string, unknown> = {}): string {
  const pi = {
    type: 'http',
    baseUrl: 'http://gpu-box.internal:7001',
    auth: { type: 'bearer', tokenEnv: 'PI_API_TOKEN' },
    protocol: 'ca-http-v1',
    ...fields,
  };
  return JSON.stringify({ adapters: { pi } }, null, 2);
}

describe('parseConfig: valid files', () => {
  it('accepts the seed HTTP adapter example verbatim, with defaults filled in', async () => {
    const config = await loadConfig(fixture('http-adapters.json'));
    expect(Object.keys(config.adapters)).toEqual(['pi', 'hermes']);
    expect(config.adapters.pi).toEqual({
      type: 'http',
      baseUrl: 'http://gpu-box.internal:7001',
      auth: { type: 'bearer', tokenEnv: 'PI_API_TOKEN' },
      protocol: 'ca-http-v1',
      costModel: 'custom/pi-2.5',
      maxConcurrentSessions: 4,
    });
  });

  it('accepts the seed Process adapter example verbatim', async () => {
    const config = await loadConfig(fixture('process-adapters.json'));
    expect(Object.keys(config.adapters)).toEqual(['gemini-cli', 'cursor-agent', 'openclaw']);
    expect(config.adapters['gemini-cli']).toEqual({
      type: 'process',
      binary: 'gemini',
      args: ['--non-interactive', '--workdir', '{{workspacePath}}'],
      env: { GOOGLE_GENERATIVE_AI_API_KEY: '${GOOGLE_GENERATIVE_AI_API_KEY}' },
      protocol: 'json-lines',
      costModel: 'google/gemini-2.0',
    });
  });

  it('accepts every adapter type, pricing and defaults in YAML', async () => {
    const config = await loadConfig(fixture('all-types.yaml'));
    expect(Object.fromEntries(Object.entries(config.adapters).map(([id, a]) => [id, a.type]))).toEqual({
      pi: 'http',
      mesh: 'http',
      'gemini-cli': 'process',
      'my-agent': 'generic-cli',
      'batch-runner': 'generic-job',
      'custom-agent': 'external',
      gateway: 'chat-sse',
    });
    expect(config.adapters['custom-agent']).toEqual({
      type: 'external',
      command: '/usr/local/bin/my-adapter',
      args: ['--mode', 'jsonl'],
      work_dir: '',
      env: {},
    });
    expect(config.adapters['batch-runner']).toMatchObject({ max_runtime: '90s', work_dir: '', env: {} });
    expect(config.adapters['my-agent']).toMatchObject({ spawn_policy: 'persistent', env: { AGENT_MODE: 'chat' } });
    expect(config.adapters.mesh).toMatchObject({ auth: { type: 'mtls' }, maxConcurrentSessions: 4 });
    expect(config.pricing).toEqual({ 'custom/pi-2.5': { input: 0.5, output: 1.5 } });
    expect(config.defaults).toEqual({
      timeoutSeconds: 1800,
      inactivitySeconds: 300,
      retry: { attempts: 3, backoffMs: 1000, maxBackoffMs: 30_000, jitter: 0.2, retryOn: ['crashed', 'timeout'] },
    });
  });

  it('parses the same map as JSON or YAML to the same value', async () => {
    const json = await readFile(fixture('http-adapters.json'), 'utf8');
    const yaml = `adapters:
  pi:
    type: http
    baseUrl: http://gpu-box.internal:7001
    auth: { type: bearer, tokenEnv: PI_API_TOKEN }
    protocol: ca-http-v1
    costModel: custom/pi-2.5
  hermes:
    type: http
    baseUrl: https://hermes.example.com
    auth: { type: bearer, tokenEnv: HERMES_API_TOKEN }
    protocol: ca-http-v1
    costModel: custom/hermes-1.0
`;
    expect(parseConfig(yaml, 'agent-mux.yml')).toEqual(parseConfig(json, 'config.json'));
  });

  it('defaults generic-job max_runtime to 5m, generic-cli spawn_policy to per-session, protocols', () => {
    const config = parseConfig(
      `adapters:
  job: { type: generic-job, command: run }
  cli: { type: generic-cli, command: chat }
  remote: { type: http, baseUrl: "https://x.example", auth: { type: none } }
`,
      'c.yaml',
    );
    expect(config.adapters.job).toMatchObject({ max_runtime: '5m', args: [] });
    expect(config.adapters.cli).toMatchObject({ spawn_policy: 'per-session' });
    expect(config.adapters.remote).toMatchObject({ protocol: 'ca-http-v1', maxConcurrentSessions: 4 });
  });

  it('tries JSON then YAML for other extensions, and accepts an empty YAML file and a BOM', () => {
    const json = '{"adapters": {"x": {"type": "process", "binary": "b"}}}';
    expect(parseConfig(json, 'agent-mux.conf').adapters.x?.type).toBe('process');
    expect(parseConfig('adapters:\n  x: { type: process, binary: b }\n', 'agentmuxrc').adapters.x?.type).toBe(
      'process',
    );
    expect(parseConfig('# nothing yet\n', 'c.yaml')).toEqual({ adapters: {} });
    expect(parseConfig(`\uFEFF${json}`, 'c.json').adapters.x?.type).toBe('process');
  });

  it('accepts $schema for editors', () => {
    expect(parseConfig('{"$schema": "https://example.com/s.json", "adapters": {}}', 'c.json').$schema).toBe(
      'https://example.com/s.json',
    );
  });
});

describe('parseConfig: schema errors name path, file and line', () => {
  it('reports a bad URL with the exact message format', () => {
    // line 1 "{", 2 "adapters", 3 "pi", 4 type, 5 baseUrl
    const error = errorOf(httpConfig({ baseUrl: 'gpu-box:7001' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('config_invalid');
    expect(error.file).toBe('config.json');
    expect(error.issues).toEqual([
      { path: 'adapters.pi.baseUrl', message: 'expected a URL (http:// or https://)', line: 5 },
    ]);
    expect(error.message).toBe('adapters.pi.baseUrl: expected a URL (http:// or https://) (config.json:5)');
  });

  it('reports the seed example with a broken URL at line 7 of its file', () => {
    const text = `{
  "adapters": {
    "pi": {
      "type": "http",
      "auth": { "type": "bearer", "tokenEnv": "PI_API_TOKEN" },
      "protocol": "ca-http-v1",
      "baseUrl": "not a url"
    }
  }
}`;
    expect(errorOf(text).message).toBe('adapters.pi.baseUrl: expected a URL (http:// or https://) (config.json:7)');
  });

  it('rejects a protocol other than ca-http-v1', () => {
    const error = errorOf(httpConfig({ protocol: 'ca-http-v2' }));
    expect(issueAt(error, 'adapters.pi.protocol')).toEqual({
      path: 'adapters.pi.protocol',
      message: 'expected "ca-http-v1", got "ca-http-v2"',
      line: 10,
    });
  });

  it('rejects an unknown key at its own line and suggests the nearest one', () => {
    const text = `{
  "adapters": {
    "pi": {
      "type": "http",
      "baseUrl": "http://gpu-box.internal:7001",
      "auth": { "type": "bearer", "tokenEnv": "PI_API_TOKEN" },
      "maxConcurentSessions": 8
    }
  },
  "pricng": {}
}`;
    const error = errorOf(text);
    expect(error.issues).toEqual([
      {
        path: 'adapters.pi.maxConcurentSessions',
        message: 'unknown key "maxConcurentSessions" (did you mean "maxConcurrentSessions"?)',
        line: 7,
      },
      { path: 'pricng', message: 'unknown key "pricng" (did you mean "pricing"?)', line: 10 },
    ]);
  });

  it('suggests snake_case keys for camelCase typos and lists the keys when nothing is close', () => {
    const error = errorOf(
      'adapters:\n  job:\n    type: generic-job\n    command: x\n    workDir: /tmp\n    zzz: 1\n',
      'c.yaml',
    );
    expect(issueAt(error, 'adapters.job.workDir')).toMatchObject({
      message: expect.stringContaining('"work_dir"'),
      line: 5,
    });
    expect(issueAt(error, 'adapters.job.zzz').message).toBe(
      'unknown key "zzz"; expected one of "type", "command", "args", "work_dir", "env", "max_runtime", "costModel", "secretEnv"',
    );
  });

  it('reports a wrong type with what it got', () => {
    const error = errorOf(httpConfig({ maxConcurrentSessions: '8' }));
    expect(issueAt(error, 'adapters.pi.maxConcurrentSessions')).toEqual({
      path: 'adapters.pi.maxConcurrentSessions',
      message: 'expected a number, got "8"',
      line: 11,
    });
    expect(
      issueAt(errorOf(httpConfig({ maxConcurrentSessions: 0 })), 'adapters.pi.maxConcurrentSessions').message,
    ).toBe('expected a positive number, got 0');
  });

  it('reports a missing required field at its parent line', () => {
    const error = errorOf('{\n  "adapters": {\n    "gemini": {\n      "type": "process"\n    }\n  }\n}');
    expect(error.issues).toEqual([
      { path: 'adapters.gemini.binary', message: 'is required (expected a string)', line: 3 },
    ]);
  });

  it('reports an unknown or missing adapter type and auth type', () => {
    const error = errorOf(
      'adapters:\n  a:\n    type: proces\n  b:\n    binary: x\n  c:\n    type: http\n    baseUrl: http://h\n    auth: { type: oauth }\n',
      'c.yaml',
    );
    expect(issueAt(error, 'adapters.a.type')).toMatchObject({
      message:
        'expected one of "process", "http", "generic-cli", "generic-job", "external", "chat-sse", "generic-http", "acp", got "proces"',
      line: 3,
    });
    expect(issueAt(error, 'adapters.b.type')).toMatchObject({
      message: expect.stringMatching(/^is required/),
      line: 4,
    });
    expect(issueAt(error, 'adapters.c.auth.type')).toMatchObject({
      message: 'expected one of "bearer", "mtls", "none", got "oauth"',
      line: 9,
    });
  });

  it('rejects adapter ids that are not lowercase kebab-case', () => {
    const error = errorOf('adapters:\n  Pi_Box:\n    type: http\n', 'c.yaml');
    expect(error.issues).toEqual([
      {
        path: 'adapters.Pi_Box',
        message:
          'invalid key "Pi_Box": adapter ids are lowercase letters, digits and dashes, starting with a letter or digit',
        line: 2,
      },
    ]);
  });

  it('validates durations, spawn policies, env names, pricing and defaults', () => {
    const error = errorOf(
      `adapters:
  job: { type: generic-job, command: x, max_runtime: 5 minutes }
  cli: { type: generic-cli, command: x, spawn_policy: forever }
  p: { type: process, binary: x, secretEnv: [MY-TOKEN] }
pricing:
  gpt-5: { input: 1, output: 2 }
  custom/x: { input: -1, output: 2 }
defaults:
  timeoutSeconds: 0
  retry: { attempts: 0, jitter: 2, retryOn: [crash] }
`,
      'c.yaml',
    );
    const byPath = Object.fromEntries(error.issues.map((i) => [i.path, `${i.message} @${i.line}`]));
    expect(byPath).toEqual({
      'adapters.job.max_runtime': 'expected a duration such as "30s", "5m" or "1h30m" @2',
      'adapters.cli.spawn_policy': 'expected one of "per-session", "persistent", got "forever" @3',
      'adapters.p.secretEnv[0]': 'expected an environment variable name (letters, digits, _) @4',
      'pricing.gpt-5':
        'invalid key "gpt-5": expected a "provider/model" pricing key, e.g. "anthropic/claude-sonnet-4-6" @6',
      'pricing["custom/x"].input': 'expected a number of at least 0, got -1 @7',
      'defaults.timeoutSeconds': 'expected a positive number, got 0 @9',
      'defaults.retry.attempts': 'expected a number of at least 1, got 0 @10',
      'defaults.retry.jitter': 'expected a number of at most 1, got 2 @10',
      'defaults.retry.retryOn[0]': 'expected one of "crashed", "timeout", "inactivity", "failed", got "crash" @10',
    });
  });

  it('rejects a document that is not an object', () => {
    expect(errorOf('["a"]').issues).toEqual([{ path: '', message: 'expected an object, got a list', line: 1 }]);
    expect(errorOf('["a"]').message).toBe('(root): expected an object, got a list (config.json:1)');
  });

  it('keeps the zod error as the cause', () => {
    expect(errorOf(httpConfig({ baseUrl: 'x' })).cause).toBeDefined();
  });
});

describe('parseConfig: syntax errors name the line', () => {
  it('reports a YAML syntax error with its line', () => {
    const error = errorOf('adapters:\n  pi:\n    type: http\n   baseUrl: x\n', 'agent-mux.yaml');
    expect(error.file).toBe('agent-mux.yaml');
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ path: '', line: 4, message: expect.stringMatching(/^invalid YAML: /) });
    expect(error.message).toMatch(/^\(root\): invalid YAML: .* \(agent-mux\.yaml:4\)$/);
  });

  it('reports duplicate YAML keys', () => {
    const error = errorOf('adapters: {}\nadapters: {}\n', 'c.yml');
    expect(error.issues[0]).toMatchObject({ message: 'invalid YAML: Map keys must be unique', line: 2 });
  });

  it.each([
    ['a trailing comma', '{\n  "adapters": {},\n}', 3],
    ['a missing comma', '{\n  "adapters": {}\n  "pricing": {}\n}', 3],
    ['a bad literal', '{\n  "adapters": {\n    "x": tru\n  }\n}', 3],
    ['a missing value', '{\n  "adapters":\n}', 3],
    ['an unterminated string', '{\n  "adapters": {\n    "x": "abc\n  }\n}', 3],
    ['an unexpected end', '{\n  "adapters": {\n', 3],
  ])('reports invalid JSON (%s) with its line', (_name, text, line) => {
    const error = errorOf(text);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ path: '', line, message: expect.stringMatching(/^invalid JSON: /) });
    expect(error.issues[0]?.message).not.toMatch(/position|\n/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('reports JSON errors for JSON-looking text of unknown extension, YAML errors otherwise', () => {
    expect(errorOf('{"adapters": {"x": 1}', 'conf').issues[0]?.message).toMatch(/^invalid JSON/);
    expect(errorOf('adapters:\n  - a\n b: c\n', 'conf').issues[0]?.message).toMatch(/^invalid YAML/);
  });
});

describe('loadConfig', () => {
  it('names a missing file', async () => {
    const error = await loadConfig(fixture('missing.json')).catch((e: unknown) => e);
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).message).toMatch(
      /cannot read the configuration: file not found \(.*missing\.json\)$/,
    );
    expect((error as ConfigError).cause).toBeDefined();
  });

  it('names the file path it was given in issues', async () => {
    const error = (await loadConfig(fixture('bad-url.json')).catch((e: unknown) => e)) as ConfigError;
    expect(error.message).toMatch(
      /^adapters\.pi\.baseUrl: expected a URL \(http:\/\/ or https:\/\/\) \(.*config\/bad-url\.json:7\)$/,
    );
  });
});
