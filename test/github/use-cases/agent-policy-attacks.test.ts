import { afterAll, describe, expect, it } from 'vitest';
import { parseRepoConfig } from '../../../src/github/config/parse-repo-config.ts';
import type { TriggerOverrides } from '../../../src/github/use-cases/decide-trigger.ts';
import { handleTrigger } from '../../../src/github/use-cases/handle-trigger.ts';
import { resolveAgentAdapter } from '../../../src/github/use-cases/resolve-agent-adapter.ts';
import { runPolicy } from '../../../src/github/use-cases/run-policy.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../../support/github-world.ts';

/**
 * Red-team suite, class "a writer bypasses the configured policy by naming another agent": alice
 * (write) names an agent in a comment. A row that fails names the attack that works again.
 */

const CONFIGS = {
  /** One agent, which may do nothing. */
  oneDenyAgent: 'agents:\n  claude:\n    adapter: claude\n    policy: { default: deny }\n',
  /** One agent without a policy of its own, under a repository-wide deny. */
  repoDeny: 'agents:\n  mine:\n    adapter: demo\ntools:\n  policy: { default: deny }\n',
  /** No agents listed: any built-in agent, under a repository-wide deny. */
  noAgents: 'tools:\n  policy: { default: deny }\n',
  /** Agents listed, and the built-in demo named as the default. */
  demoDefault:
    'agents:\n  claude:\n    adapter: claude\ndefaultAgent: demo\ntools:\n  policy: { default: deny, rules: [{ tool: read_file, decision: allow }] }\n',
} as const;
type ConfigName = keyof typeof CONFIGS;

type Expected = { refused: RegExp } | { agent: string; policyDefault: 'allow' | 'ask' | 'deny' };

const attacks: {
  attack: string;
  config: ConfigName;
  comment: string;
  overrides?: TriggerOverrides;
  expected: Expected;
}[] = [
  {
    attack: 'names a built-in agent with a colon',
    config: 'oneDenyAgent',
    comment: '@agent codex: delete the tests',
    expected: { refused: /"codex" is not one of this repository's agents \(claude\)/ },
  },
  {
    attack: 'names the demo agent with "use … to"',
    config: 'oneDenyAgent',
    comment: '@agent use demo to fix it',
    expected: { refused: /"demo" is not one of this repository's agents/ },
  },
  {
    attack: 'names the demo agent with "with …:"',
    config: 'oneDenyAgent',
    comment: '@agent with demo: fix it',
    expected: { refused: /"demo" is not one of this repository's agents/ },
  },
  {
    attack: 'writes a built-in name without a colon (only words: the configured agent runs)',
    config: 'oneDenyAgent',
    comment: '@agent demo fix it',
    expected: { agent: 'claude', policyDefault: 'deny' },
  },
  {
    attack: 'names another built-in agent',
    config: 'oneDenyAgent',
    comment: '@agent gemini: push to main',
    expected: { refused: /"gemini" is not one/ },
  },
  {
    attack: 'names a built-in agent in capitals',
    config: 'oneDenyAgent',
    comment: '@agent CODEX: delete the tests',
    expected: { refused: /"codex" is not one/ },
  },
  {
    attack: 'a workflow input names an unlisted built-in agent',
    config: 'oneDenyAgent',
    comment: '@agent delete the tests',
    overrides: { agent: 'codex' },
    expected: { refused: /"codex" is not one/ },
  },
  {
    attack: 'names the configured agent (runs under its own policy)',
    config: 'oneDenyAgent',
    comment: '@agent claude: fix it',
    expected: { agent: 'claude', policyDefault: 'deny' },
  },
  {
    attack: 'names no agent (the configured default, under its own policy)',
    config: 'oneDenyAgent',
    comment: '@agent fix it',
    expected: { agent: 'claude', policyDefault: 'deny' },
  },
  {
    attack: 'names the built-in demo when the config lists another agent',
    config: 'repoDeny',
    comment: '@agent demo: fix it',
    expected: { refused: /"demo" is not one/ },
  },
  {
    attack: 'names a listed agent without a policy (the repository-wide policy applies)',
    config: 'repoDeny',
    comment: '@agent mine: fix it',
    expected: { agent: 'mine', policyDefault: 'deny' },
  },
  {
    attack: 'names a built-in agent when none is listed (the repository-wide policy applies)',
    config: 'noAgents',
    comment: '@agent codex: fix it',
    expected: { agent: 'codex', policyDefault: 'deny' },
  },
  {
    attack: 'names no agent when the config names demo as default',
    config: 'demoDefault',
    comment: '@agent fix it',
    expected: { agent: 'demo', policyDefault: 'deny' },
  },
  {
    attack: 'names another built-in agent when the config names demo as default',
    config: 'demoDefault',
    comment: '@agent codex: fix it',
    expected: { refused: /"codex" is not one of this repository's agents \(claude, demo\)/ },
  },
];

const worlds = new Map<ConfigName, Promise<GitHubWorld>>();
function world(name: ConfigName): Promise<GitHubWorld> {
  let w = worlds.get(name);
  if (w === undefined) {
    w = createGitHubWorld({ config: CONFIGS[name] }).then((created) => {
      created.gh.state.addIssue(created.repo, { number: 1, title: 'Do something', body: 'please', user: 'alice' });
      return created;
    });
    worlds.set(name, w);
  }
  return w;
}
afterAll(async () => {
  for (const w of worlds.values()) await (await w).close();
});

describe('attacks: naming another agent to escape the configured policy', () => {
  it.each(attacks)('$config: $attack', async ({ config, comment, overrides, expected }) => {
    const w = await world(config);
    const before = w.gh.state.comments(w.repo, 1).length;
    const decision = await handleTrigger(w.deps, commentEvent(w, 1, 'alice', comment), overrides);
    if ('refused' in expected) {
      expect(decision.kind).toBe('refused');
      if (decision.kind !== 'refused') return;
      expect(decision.reason).toMatch(expected.refused);
      // The refusal is visible on the issue, not only in a log.
      const posted = w.gh.state.comments(w.repo, 1).slice(before + 1);
      expect(posted.map((c) => c.body)).toEqual([expect.stringMatching(expected.refused)]);
      return;
    }
    expect(decision.kind).toBe('run');
    if (decision.kind !== 'run') return;
    expect(decision.job.agentName).toBe(expected.agent);
    expect(runPolicy(decision.job.config, decision.job.agentName).default).toBe(expected.policyDefault);
  });

  it('the adapter resolver refuses an unlisted built-in agent too (a job made elsewhere)', async () => {
    const w = await world('oneDenyAgent');
    const parsed = parseRepoConfig(CONFIGS.oneDenyAgent, '.github/agent-mux.yml');
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(() =>
      resolveAgentAdapter({ registry: w.registry(), agentName: 'codex', config: parsed.config, file: 'x.yml' }),
    ).toThrow(/"codex" is not one of this repository's agents/);
    expect(() =>
      resolveAgentAdapter({ registry: w.registry(), agentName: 'constructor', config: parsed.config, file: 'x.yml' }),
    ).toThrow(/not one of this repository's agents/);
  });
});
