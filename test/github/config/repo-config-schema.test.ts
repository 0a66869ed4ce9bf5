import { describe, expect, it } from 'vitest';
import {
  defaultRepoConfig,
  parseRepoConfig,
  type RepoConfig,
  repoConfigSchema,
} from '../../../src/github/config/index.ts';

const FILE = '.github/agent-mux.yml';

function configOf(text: string): RepoConfig {
  const result = parseRepoConfig(text, FILE);
  if (!result.ok) throw new Error(`expected a valid config, got:\n${result.error.message}`);
  return result.config;
}

function errorOf(text: string): string {
  const result = parseRepoConfig(text, FILE);
  if (result.ok) throw new Error('expected an invalid config');
  return result.error.message;
}

describe('defaultRepoConfig', () => {
  it('has every default of the documented schema, durations in milliseconds', () => {
    expect(defaultRepoConfig()).toEqual({
      trigger: {
        phrase: '@agent',
        label: 'agent',
        onAssign: true,
        permission: 'write',
        allowedBots: [],
        forkPullRequests: 'allow',
      },
      agents: {},
      defaultAgent: 'demo',
      tools: { sandboxUnavailable: 'warn' },
      approvals: { users: [], teams: [], permission: 'write', timeout: 1_800_000, requestReview: true },
      limits: { runTimeout: 1_800_000, budget: { keepWork: true } },
      git: { branchPrefix: 'agent-mux/', pullRequests: true, linkIssue: true, draft: false },
      concurrency: { perIssue: 'queue' },
      forks: { delivery: 'auto' },
      conversations: { continue: true, expireDays: 14 },
      review: {
        threshold: 'minor',
        blockOn: 'major',
        conclusion: 'failure',
        rules: ['AGENTS.md', 'CLAUDE.md'],
        maxFindings: 30,
        on: [],
        incremental: 'off',
      },
    });
  });

  it('returns a fresh object each time', () => {
    const a = defaultRepoConfig();
    a.trigger.allowedBots.push('x');
    expect(defaultRepoConfig().trigger.allowedBots).toEqual([]);
  });

  it.each([[''], ['# comments only\n'], ['~'], ['---\n']])('an empty document %j is the default config', (text) => {
    expect(configOf(text)).toEqual(defaultRepoConfig());
  });
});

describe('repoConfigSchema: valid configs', () => {
  const cases: { name: string; yaml: string; expected: Record<string, unknown> }[] = [
    {
      name: 'trigger fields',
      yaml: 'trigger:\n  phrase: "@bot"\n  permission: maintain\n  forkPullRequests: refuse\n  onAssign: false',
      expected: {
        trigger: {
          phrase: '@bot',
          label: 'agent',
          onAssign: false,
          permission: 'maintain',
          allowedBots: [],
          forkPullRequests: 'refuse',
        },
      },
    },
    { name: 'a word as phrase', yaml: 'trigger: { phrase: agent }', expected: { trigger: { phrase: 'agent' } } },
    {
      name: 'a team-like phrase',
      yaml: 'trigger: { phrase: "@my-org/ai" }',
      expected: { trigger: { phrase: '@my-org/ai' } },
    },
    { name: 'label null disables', yaml: 'trigger: { label: null }', expected: { trigger: { label: null } } },
    { name: 'label ~ disables', yaml: 'trigger:\n  label: ~', expected: { trigger: { label: null } } },
    { name: 'label false disables', yaml: 'trigger: { label: false }', expected: { trigger: { label: null } } },
    { name: 'another label', yaml: 'trigger: { label: "ai: fix" }', expected: { trigger: { label: 'ai: fix' } } },
    {
      name: 'exact bot logins; a leading @ is dropped',
      yaml: 'trigger: { allowedBots: ["renovate[bot]", "@dependabot[bot]", my-bot] }',
      expected: { trigger: { allowedBots: ['renovate[bot]', 'dependabot[bot]', 'my-bot'] } },
    },
    {
      name: 'the first agent listed is the default agent',
      yaml: 'agents:\n  codex: { adapter: codex }\n  claude: { adapter: claude }',
      expected: { defaultAgent: 'codex', agents: { codex: { adapter: 'codex' }, claude: { adapter: 'claude' } } },
    },
    {
      name: 'defaultAgent names a listed agent',
      yaml: 'agents:\n  codex: { adapter: codex }\n  claude: { adapter: claude }\ndefaultAgent: claude',
      expected: { defaultAgent: 'claude' },
    },
    {
      name: 'defaultAgent may be the builtin demo',
      yaml: 'agents:\n  codex: { adapter: codex }\ndefaultAgent: demo',
      expected: { defaultAgent: 'demo' },
    },
    {
      name: 'every agent field; timeout in ms; any adapter id',
      yaml: [
        'agents:',
        '  gpu:',
        '    adapter: my-own-adapter',
        '    model: pi-2.5',
        '    url: https://gpu.example:8443',
        '    options: { temperature: 0.2, nested: { a: [1] } }',
        '    policy: { default: deny, rules: [{ tool: read_file, decision: allow }] }',
        '    timeout: 1h30m',
      ].join('\n'),
      expected: {
        agents: {
          gpu: {
            adapter: 'my-own-adapter',
            model: 'pi-2.5',
            url: 'https://gpu.example:8443',
            options: { temperature: 0.2, nested: { a: [1] } },
            policy: { default: 'deny', rules: [{ tool: 'read_file', decision: 'allow' }] },
            timeout: 5_400_000,
          },
        },
      },
    },
    {
      name: 'tools.policy with defaults filled',
      yaml: 'tools:\n  policy:\n    rules:\n      - { tool: "shell", decision: ask, when: { command: ["git *", "npm *"] }, reason: r }',
      expected: {
        tools: {
          policy: {
            default: 'ask',
            rules: [{ tool: 'shell', decision: 'ask', when: { command: ['git *', 'npm *'] }, reason: 'r' }],
          },
        },
      },
    },
    {
      name: 'approvals',
      yaml: 'approvals:\n  users: ["@octocat", hubot]\n  teams: [my-org/maintainers, reviewers]\n  permission: admin\n  timeout: 90s\n  requestReview: false',
      expected: {
        approvals: {
          users: ['octocat', 'hubot'],
          teams: ['my-org/maintainers', 'reviewers'],
          permission: 'admin',
          timeout: 90_000,
          requestReview: false,
        },
      },
    },
    {
      name: 'limits',
      yaml: 'limits: { runTimeout: 2h, budget: { usd: 0.5, tokens: 100000 } }',
      expected: { limits: { runTimeout: 7_200_000, budget: { usd: 0.5, tokens: 100_000, keepWork: true } } },
    },
    {
      name: 'only one budget',
      yaml: 'limits: { budget: { usd: 5 } }',
      expected: { limits: { runTimeout: 1_800_000, budget: { usd: 5, keepWork: true } } },
    },
    {
      name: 'a spent run that keeps no work',
      yaml: 'limits: { budget: { tokens: 3000, keepWork: false } }',
      expected: { limits: { budget: { tokens: 3000, keepWork: false } } },
    },
    {
      name: 'git',
      yaml: 'git: { branchPrefix: bots/agent-, pullRequests: false, linkIssue: false, draft: true }',
      expected: { git: { branchPrefix: 'bots/agent-', pullRequests: false, linkIssue: false, draft: true } },
    },
    {
      name: 'concurrency',
      yaml: 'concurrency: { perIssue: cancel }',
      expected: { concurrency: { perIssue: 'cancel' } },
    },
    { name: 'JSON is YAML too', yaml: '{"git": {"draft": true}}', expected: { git: { draft: true } } },
  ];

  it.each(cases)('$name', ({ yaml, expected }) => {
    expect(configOf(yaml)).toMatchObject(expected);
  });

  it('leaves untouched sections at their defaults', () => {
    const config = configOf('git: { draft: true }');
    const defaults = defaultRepoConfig();
    expect({ ...config, git: defaults.git }).toEqual(defaults);
  });

  it('approvals.permission defaults to trigger.permission; an explicit one wins', () => {
    expect(configOf('trigger: { permission: triage }').approvals.permission).toBe('triage');
    expect(configOf('trigger: { permission: admin }').approvals.permission).toBe('admin');
    expect(configOf('trigger: { permission: triage }\napprovals: { permission: maintain }').approvals.permission).toBe(
      'maintain',
    );
    expect(configOf('approvals: { permission: read }').approvals.permission).toBe('read');
  });

  it('url on a remote adapter (http, chat-sse) and options on a configurable one are kept', () => {
    const config = configOf(
      [
        'agents:',
        '  gpu: { adapter: http, url: "https://gpu.example:8443", options: { auth: { type: none } } }',
        '  chat: { adapter: chat-sse, url: "http://127.0.0.1:9000" }',
        '  local: { adapter: process, options: { binary: ./agent } }',
      ].join('\n'),
    );
    expect(config.agents.gpu?.url).toBe('https://gpu.example:8443');
    expect(config.agents.chat?.url).toBe('http://127.0.0.1:9000');
    expect(config.agents.local?.options).toEqual({ binary: './agent' });
  });

  it('accepts input typed as RepoConfigInput directly', () => {
    expect(repoConfigSchema.parse({ limits: { runTimeout: '5m' } }).limits.runTimeout).toBe(300_000);
  });
});

describe('repoConfigSchema: invalid configs name the field and its line', () => {
  const cases: { name: string; yaml: string; message: string }[] = [
    {
      name: 'a misspelt key, with a suggestion',
      yaml: 'trigger:\n  phrse: "@agent"',
      message: `trigger.phrse: unknown key "phrse" (did you mean "phrase"?) (${FILE}:2)`,
    },
    {
      name: 'an unknown top-level key',
      yaml: 'git: {}\nagent:\n  claude: { adapter: claude }',
      message: `agent: unknown key "agent" (did you mean "agents"?) (${FILE}:2)`,
    },
    {
      name: 'an unknown role',
      yaml: 'trigger:\n  label: agent\n  permission: writer',
      message: `trigger.permission: expected one of "read", "triage", "write", "maintain", "admin", got "writer" (${FILE}:3)`,
    },
    {
      name: 'a phrase with a space',
      yaml: 'trigger: { phrase: "@agent please" }',
      message: `trigger.phrase: expected "@name" or a single word, without spaces (${FILE}:1)`,
    },
    { name: 'a bare @', yaml: 'trigger: { phrase: "@" }', message: `trigger.phrase: expected "@name"` },
    {
      name: 'an empty label',
      yaml: 'trigger:\n  label: ""',
      message: `trigger.label:`,
    },
    {
      name: 'a wildcard bot',
      yaml: 'trigger:\n  allowedBots:\n    - renovate[bot]\n    - "*[bot]"',
      message: `trigger.allowedBots[1]: wildcards are not allowed: list exact logins such as "renovate[bot]" (${FILE}:4)`,
    },
    {
      name: 'a question-mark wildcard',
      yaml: 'trigger: { allowedBots: ["bot?"] }',
      message: `trigger.allowedBots[0]: wildcards are not allowed`,
    },
    {
      name: 'a bot login with spaces',
      yaml: 'trigger: { allowedBots: ["my bot"] }',
      message: `trigger.allowedBots[0]: expected a GitHub login such as "octocat" or "renovate[bot]" (${FILE}:1)`,
    },
    {
      name: 'forkPullRequests as a boolean',
      yaml: 'trigger: { forkPullRequests: true }',
      message: `trigger.forkPullRequests: expected one of "allow", "refuse", got true (${FILE}:1)`,
    },
    {
      name: 'onAssign as a string',
      yaml: 'trigger:\n  onAssign: "yes"',
      message: `trigger.onAssign: expected true or false, got "yes" (${FILE}:2)`,
    },
    {
      name: 'an agent name with capitals',
      yaml: 'agents:\n  Claude: { adapter: claude }',
      message: `agents.Claude: invalid key "Claude": agent names are lowercase letters, digits and dashes`,
    },
    {
      name: 'an agent without adapter',
      yaml: 'agents:\n  claude:\n    model: claude-sonnet-4',
      message: `agents.claude.adapter: is required (expected a string) (${FILE}:2)`,
    },
    {
      name: 'an adapter id with capitals',
      yaml: 'agents:\n  claude:\n    adapter: Claude',
      message: `agents.claude.adapter: adapter ids are lowercase letters, digits and dashes, starting with a letter or digit (${FILE}:3)`,
    },
    {
      name: 'a misspelt agent field',
      yaml: 'agents:\n  claude:\n    adapter: claude\n    modle: x',
      message: `agents.claude.modle: unknown key "modle" (did you mean "model"?) (${FILE}:4)`,
    },
    {
      name: 'an ftp url',
      yaml: 'agents:\n  pi:\n    adapter: pi\n    url: ftp://gpu.example',
      message: `agents.pi.url: expected a URL (http:// or https://) (${FILE}:4)`,
    },
    {
      name: 'a bad agent timeout',
      yaml: 'agents:\n  pi:\n    adapter: pi\n    timeout: 10 minutes',
      message: `agents.pi.timeout: expected a duration such as "30s", "5m" or "1h30m" (${FILE}:4)`,
    },
    {
      name: 'a misspelt policy key',
      yaml: 'tools:\n  policy:\n    defualt: allow',
      message: `tools.policy.defualt: unknown key "defualt" (did you mean "default"?) (${FILE}:3)`,
    },
    {
      name: 'a policy rule with an unknown decision',
      yaml: 'tools:\n  policy:\n    rules:\n      - tool: shell\n        decision: maybe',
      message: `tools.policy.rules[0].decision: expected one of "allow", "ask", "deny", got "maybe" (${FILE}:5)`,
    },
    {
      name: 'a policy rule with an unknown key',
      yaml: 'tools:\n  policy:\n    rules:\n      - tool: shell\n        decision: ask\n        wehn: {}',
      message: `tools.policy.rules[0].wehn: unknown key "wehn" (did you mean "when"?) (${FILE}:6)`,
    },
    {
      name: 'defaultAgent naming no agent',
      yaml: 'agents:\n  codex: { adapter: codex }\ndefaultAgent: claude',
      message: `defaultAgent: no agent named "claude"; expected one of "codex", "demo" (${FILE}:3)`,
    },
    {
      name: 'a bad approvals team',
      yaml: 'approvals:\n  teams: ["my org/x"]',
      message: `approvals.teams[0]: expected a team as "org/team-slug" or "team-slug" (${FILE}:2)`,
    },
    {
      name: 'a bad approvals timeout',
      yaml: 'approvals:\n  timeout: 30',
      message: `approvals.timeout: expected a string, got 30 (${FILE}:2)`,
    },
    {
      name: 'a zero run timeout',
      yaml: 'limits:\n  runTimeout: 0s',
      message: `limits.runTimeout: expected a duration longer than 0 (${FILE}:2)`,
    },
    {
      name: 'a negative budget',
      yaml: 'limits:\n  budget:\n    usd: -1',
      message: `limits.budget.usd: expected a positive number, got -1 (${FILE}:3)`,
    },
    {
      name: 'a fractional token budget',
      yaml: 'limits:\n  budget:\n    tokens: 1.5',
      message: `limits.budget.tokens: expected an integer, got 1.5 (${FILE}:3)`,
    },
    {
      name: 'a branch prefix with ..',
      yaml: 'git:\n  branchPrefix: a..b/',
      message: `git.branchPrefix: a branch name may not contain ".." or "//" or end with ".lock" (${FILE}:2)`,
    },
    {
      name: 'a branch prefix with a space',
      yaml: 'git:\n  branchPrefix: "my branch/"',
      message: `git.branchPrefix: expected a branch name prefix`,
    },
    {
      name: 'an unknown concurrency mode',
      yaml: 'concurrency:\n  perIssue: parallel',
      message: `concurrency.perIssue: expected one of "queue", "cancel", got "parallel" (${FILE}:2)`,
    },
    {
      name: 'url on a local built-in adapter means nothing',
      yaml: 'agents:\n  gpu:\n    adapter: pi\n    url: https://gpu.example:8443',
      message: `agents.gpu.url: means nothing for adapter "pi", which runs on this host; an agent on another host needs adapter: http or chat-sse with this url (${FILE}:4)`,
    },
    {
      name: 'url on a local configurable adapter means nothing',
      yaml: 'agents:\n  tool:\n    adapter: process\n    options: { binary: ./agent }\n    url: http://x.example',
      message: `agents.tool.url: means nothing for adapter "process"`,
    },
    {
      name: 'options on a built-in adapter mean nothing',
      yaml: 'agents:\n  claude:\n    adapter: claude\n    options: { temperature: 0.2 }',
      message: `agents.claude.options: means nothing for the built-in adapter "claude", which takes no options (set the model with model:) (${FILE}:4)`,
    },
    {
      name: 'a list at the root',
      yaml: '- trigger',
      message: `(root): expected an object, got a list (${FILE}:1)`,
    },
    {
      name: 'a section that is not an object',
      yaml: 'git: true',
      message: `git: expected an object, got true (${FILE}:1)`,
    },
  ];

  it.each(cases)('$name', ({ yaml, message }) => {
    expect(errorOf(yaml)).toContain(message);
  });

  it('reports every problem at once, each on its line', () => {
    const message = errorOf(
      [
        'trigger:',
        '  permission: writer',
        'agents:',
        '  codex: { adapter: codex, timeout: soon }',
        'defaultAgent: claude',
        'git: { draft: "no" }',
      ].join('\n'),
    );
    const lines = message.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^trigger\.permission: .*:2\)$/),
        expect.stringMatching(/^agents\.codex\.timeout: .*:4\)$/),
        expect.stringMatching(/^defaultAgent: .*:5\)$/),
        expect.stringMatching(/^git\.draft: .*:6\)$/),
      ]),
    );
  });
});
