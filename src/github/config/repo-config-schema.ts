import { z } from 'zod';
import { builtinAdapterIds } from '../../adapters/builtin-adapter-ids.generated.ts';
import { adapterIdSchema, httpUrlSchema } from '../../core/config/adapter-config-schema.ts';
import { durationSchema, parseDuration } from '../../core/config/duration.ts';
import { permissionPolicySchema, permissionRuleSchema } from '../../core/tools/permission-policy.ts';
import { LONGEST_CONVERSATION_DAYS } from '../conversation/conversation-state.ts';
import { SEVERITIES } from '../review/finding.ts';
import { INCREMENTAL_MODES } from '../review/review-scope.ts';
import { PULL_REQUEST_ACTIONS } from '../trigger/trigger-event.ts';

/**
 * The per-repository configuration `.github/agent-mux.yml`. Every field is optional; every
 * object is strict (a misspelt key is an error naming it). Durations are written as strings
 * (`30m`, `1h30m`) and come out of the schema as milliseconds. See `docs/repo-config.md`.
 */

/** The repository roles a setting may require, weakest first. */
export const repoRoles = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export const repoRoleSchema = z.enum(repoRoles);
export type RequiredRepoRole = z.output<typeof repoRoleSchema>;

/** Adapter ids agent-mux ships with: any other id is accepted and checked by the front end. */
export { builtinAdapterIds };

/** Adapter types that reach an agent on another host: for them `url` is the agent's base URL. */
export const remoteAdapterTypes = ['http', 'chat-sse'] as const;

/** Adapter types built from `options` on this host (a command, a request): they take no `url`. */
const localConfigTypes = ['process', 'generic-cli', 'generic-job', 'external', 'generic-http'] as const;

/** The agent used when the configuration names none. */
export const BUILTIN_DEFAULT_AGENT = 'demo';

/** A duration longer than zero (a malformed one is reported by `durationSchema` alone). */
const positiveDurationSchema = durationSchema.refine(
  (text) => {
    try {
      return parseDuration(text) > 0;
    } catch {
      return true;
    }
  },
  { error: 'expected a duration longer than 0' },
);

/** A duration string with a default, parsed to milliseconds. */
function durationMs(fallback: string, description: string) {
  return positiveDurationSchema
    .default(fallback)
    .describe(description)
    .transform((text) => parseDuration(text));
}

/** An optional duration string, parsed to milliseconds. */
function optionalDurationMs(description: string) {
  return positiveDurationSchema
    .transform((text) => parseDuration(text))
    .optional()
    .describe(description);
}

/**
 * An optional section: when absent, `{}` is parsed so its fields' defaults apply. (Rather than
 * `.prefault({})`, which hides the section's keys from the unknown-key suggestions.)
 */
function section<T extends z.ZodType>(schema: T) {
  return schema.optional().transform((value): z.output<T> => value ?? schema.parse({}));
}

const loginPattern = /^@?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?$/;
const wildcard = /[*?]/;

/** A GitHub login (`octocat`, `renovate[bot]`); a leading `@` is dropped. Wildcards are refused. */
const loginSchema = z
  .string()
  .refine((login) => !wildcard.test(login), {
    error: 'wildcards are not allowed: list exact logins such as "renovate[bot]"',
    abort: true,
  })
  .regex(loginPattern, { error: 'expected a GitHub login such as "octocat" or "renovate[bot]"' })
  .transform((login) => login.replace(/^@/, ''));

/** `org/team-slug`, or `team-slug` of the repository owner's organization; a leading `@` is dropped. */
const teamSchema = z
  .string()
  .regex(/^@?(?:[A-Za-z0-9][A-Za-z0-9-]*\/)?[A-Za-z0-9][A-Za-z0-9_.-]*$/, {
    error: 'expected a team as "org/team-slug" or "team-slug"',
  })
  .transform((team) => team.replace(/^@/, ''));

/** A permission policy whose objects are strict, so a misspelt `rules` or `decision` is reported. */
const strictPolicySchema = z
  .strictObject({
    default: permissionPolicySchema.shape.default.describe('Decision when no rule matches: allow, ask or deny.'),
    rules: z
      .array(z.strictObject(permissionRuleSchema.shape))
      .default([])
      .describe('Rules tried in order; the first whose `tool` glob (and `when` globs) match decides.'),
  })
  .describe('A tool permission policy: the first matching rule decides, else `default`.');

const triggerSchema = z
  .strictObject({
    phrase: z
      .string()
      .regex(/^(?:@[\w./-]+|\w[\w-]*)$/, { error: 'expected "@name" or a single word, without spaces' })
      .default('@agent')
      .describe('The mention that starts a run in a comment, e.g. "@agent fix the tests".'),
    label: z
      .union([z.string().min(1).max(50), z.null(), z.literal(false)])
      .default('agent')
      .describe('Labeling an issue with this label starts a run; null or false disables it.')
      .transform((label) => (label === false ? null : label)),
    onAssign: z.boolean().default(true).describe("Assigning an issue to the app's user starts a run."),
    permission: repoRoleSchema
      .default('write')
      .describe('The minimum repository role of a user who may start a run: read, triage, write, maintain or admin.'),
    allowedBots: z
      .array(loginSchema)
      .prefault([])
      .describe('Bot accounts that may start runs, by exact login (e.g. "renovate[bot]"); no wildcards.'),
    forkPullRequests: z
      .enum(['allow', 'refuse'])
      .default('allow')
      .describe('Whether runs may start on pull requests from forks.'),
  })
  .describe('What starts a run, and who may start one.');

const agentSchema = z
  .strictObject({
    adapter: adapterIdSchema.meta({
      description: 'The adapter id (claude, codex, gemini, …, or one configured for the host).',
      examples: [...builtinAdapterIds],
    }),
    model: z.string().min(1).optional().describe("The model, passed to the adapter; default: the adapter's own."),
    url: httpUrlSchema
      .meta({
        description: 'The base URL of a remote agent (http or https); only for adapter http or chat-sse.',
        format: 'uri',
        pattern: '^https?://',
      })
      .optional(),
    options: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Options of a configurable adapter (process, http, generic-cli, …); built-in adapters take none.'),
    policy: strictPolicySchema
      .optional()
      .describe("This agent's tool permission policy; replaces tools.policy for its runs."),
    timeout: optionalDurationMs("This agent's run timeout (e.g. 45m); overrides limits.runTimeout."),
  })
  .describe('An agent: an adapter with its model, location, options and policy.');

/** Agent names: lowercase letters, digits and dashes, starting with a letter or digit. */
export const agentNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, {
  error: 'agent names are lowercase letters, digits and dashes, starting with a letter or digit',
});

const toolsSchema = z
  .strictObject({
    policy: strictPolicySchema
      .optional()
      .describe('The tool permission policy of runs; when absent, reads are allowed and writes ask.'),
    sandboxUnavailable: z
      .enum(['warn', 'fail'])
      .prefault('warn')
      .describe(
        "When the agent's own sandbox (Codex's) does not work on the runner: warn, start the agent and say so on the check run and tracking comment; fail, start nothing and fail the run with the reason.",
      ),
  })
  .describe('Tools the agents may use.');

const approvalsSchema = z
  .strictObject({
    users: z.array(loginSchema).prefault([]).describe('Users who may approve tool calls, by login.'),
    teams: z
      .array(teamSchema)
      .prefault([])
      .describe('Teams whose members may approve: "org/team-slug", or "team-slug" of the repository\'s owner.'),
    permission: repoRoleSchema
      .optional()
      .describe(
        'Any user with at least this repository role may approve too; default: trigger.permission (who may start a run).',
      ),
    timeout: durationMs('30m', 'Approvals unanswered for this long are denied.'),
    requestReview: z.boolean().default(true).describe('On pull requests, request a review from the approvers.'),
  })
  .describe('Who approves the tool calls the policy asks about.');

const dailyBudgetSchema = z
  .strictObject({
    usd: z.number().positive().optional().describe('US dollars all runs in this repository may cost per UTC day.'),
    tokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Tokens all runs in this repository may use per UTC day (what agents with no known price count in).'),
  })
  .describe(
    'Daily limits of this repository, kept between runs (the Actions cache; the app’s database). A run that would start over one does not start; a run that reaches one pauses and asks for a raise.',
  );

const budgetSchema = z
  .strictObject({
    usd: z.number().positive().optional().describe('Stop a run once it has cost this many US dollars.'),
    tokens: z.number().int().positive().optional().describe('Stop a run once it has used this many tokens.'),
    daily: dailyBudgetSchema.optional(),
    keepWork: z
      .boolean()
      .default(true)
      .describe(
        'When a run ends because its budget is spent, commit and push what it changed so far (its branch and ' +
          "pull request, as a finished run's), and conclude the check run as failed.",
      ),
  })
  .describe(
    'Spending limits; each is optional. A run that reaches one is paused and asks on GitHub for a raise (`/budget <amount>`).',
  );

const limitsSchema = z
  .strictObject({
    runTimeout: durationMs('30m', 'A run is stopped after this long.'),
    budget: section(budgetSchema),
  })
  .describe('Limits of each run.');

const branchPrefixSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, {
    error: 'expected a branch name prefix of letters, digits, ".", "_", "-" and "/"',
  })
  .refine((prefix) => !prefix.includes('..') && !prefix.includes('//') && !prefix.endsWith('.lock'), {
    error: 'a branch name may not contain ".." or "//" or end with ".lock"',
  });

const gitSchema = z
  .strictObject({
    branchPrefix: branchPrefixSchema
      .default('agent-mux/')
      .describe('Branches for runs are named with this prefix, e.g. agent-mux/issue-12.'),
    pullRequests: z.boolean().default(true).describe('Open a pull request after a run that changed files.'),
    linkIssue: z.boolean().default(true).describe('Link the issue in the pull request body ("Closes #12").'),
    draft: z.boolean().default(false).describe('Open pull requests as drafts.'),
  })
  .describe('Branches and pull requests.');

const forksSchema = z
  .strictObject({
    delivery: z
      .enum(['auto', 'pull-request', 'suggestions'])
      .default('auto')
      .describe(
        'How the change of a run on a pull request from a fork is delivered (nothing is ever pushed to the fork): ' +
          "pull-request (a branch in this repository and a pull request against the fork pull request's base), " +
          'suggestions (a review on the fork pull request with suggestion blocks the author applies with one click; ' +
          'a pull request when the change does not fit the diff), or auto (suggestions for a small change that fits, ' +
          'else a pull request).',
      ),
  })
  .describe('Runs on pull requests from forks.');

const concurrencySchema = z
  .strictObject({
    perIssue: z
      .enum(['queue', 'cancel'])
      .default('queue')
      .describe('A new run on an issue with a run in progress waits (queue) or cancels the older one (cancel).'),
  })
  .describe('Runs at the same time.');

const conversationsSchema = z
  .strictObject({
    continue: z
      .boolean()
      .default(true)
      .describe(
        'A later mention on the same issue or pull request (or on the pull request agent-mux opened for the issue) ' +
          'continues the last run: the same agent, its session resumed, commits on the same branch and pull request. ' +
          'false: every mention starts fresh ("@agent new: …" starts fresh either way).',
      ),
    expireDays: z
      .number()
      .int()
      .positive()
      .max(LONGEST_CONVERSATION_DAYS)
      .default(14)
      .describe('A conversation whose last run is older than this many days starts fresh (and says so).'),
  })
  .describe('Conversations: how runs on one issue or pull request follow on from each other.');

const reviewSchema = z
  .strictObject({
    threshold: z
      .enum(SEVERITIES)
      .default('minor')
      .describe('Findings below this severity (blocker, major, minor, nit) are not posted.'),
    blockOn: z
      .enum(SEVERITIES)
      .default('major')
      .describe(
        'While a finding at or above this severity is open, the check run "agent-mux / review" does not succeed.',
      ),
    conclusion: z
      .enum(['failure', 'action_required'])
      .default('failure')
      .describe(
        "The check run's conclusion while a blocking finding is open (require the check in branch protection).",
      ),
    rules: z
      .array(z.string().min(1))
      .default(['AGENTS.md', 'CLAUDE.md'])
      .describe("Files read from the base branch and given to the agent as the review's rules (those that exist)."),
    maxFindings: z.number().int().min(1).max(100).default(30).describe('The most findings one review may report.'),
    on: z
      .array(z.enum(PULL_REQUEST_ACTIONS))
      .default([])
      .describe(
        'Review pull requests without a mention when they are opened, pushed to (synchronize), reopened or marked ' +
          "ready for review; draft pull requests are left alone. The event's sender needs trigger.permission.",
      ),
    agent: agentNameSchema.optional().describe('The agent that reviews automatically; default: the default agent.'),
    incremental: z
      .enum(INCREMENTAL_MODES)
      .default('off')
      .describe(
        'What a push (synchronize) to a reviewed pull request reviews. off: the whole pull request again. ' +
          "new-commits: only the pull request's files the commits since the last review changed (none: no agent run). " +
          'findings: only the files of open findings those commits changed (none: no agent run). Either way a ' +
          'finding whose code is gone is resolved, and a mention reviews the whole pull request.',
      ),
  })
  .describe('Pull-request reviews ("@agent review" on a pull request).');

const repoConfigObjectSchema = z.strictObject({
  trigger: section(triggerSchema),
  agents: section(z.record(agentNameSchema, agentSchema)).describe(
    'Agents by name; a comment picks one with "@agent <name>: …".',
  ),
  defaultAgent: agentNameSchema
    .optional()
    .describe('The agent used when a comment names none; default: the first agent listed, else "demo".'),
  tools: section(toolsSchema),
  approvals: section(approvalsSchema),
  limits: section(limitsSchema),
  git: section(gitSchema),
  concurrency: section(concurrencySchema),
  forks: section(forksSchema),
  conversations: section(conversationsSchema),
  review: section(reviewSchema),
});

/** The schema of `.github/agent-mux.yml`: defaults filled, durations in milliseconds, `defaultAgent` resolved. */
export const repoConfigSchema = repoConfigObjectSchema
  .superRefine(
    (config, ctx) => {
      // Runs even when other fields are invalid (so every problem is reported at once): `config`
      // may then be any input, hence the checks.
      const { agents, defaultAgent: name } = (config ?? {}) as { agents?: unknown; defaultAgent?: unknown };
      if (typeof agents === 'object' && agents !== null) {
        for (const [agentName, agent] of Object.entries(agents)) {
          for (const issue of meaninglessAgentKeys(agent)) {
            ctx.addIssue({
              code: 'custom',
              path: ['agents', agentName, issue.key],
              message: issue.message,
              input: agent,
            });
          }
        }
      }
      if (typeof name !== 'string' || typeof agents !== 'object' || agents === null) return;
      if (name === BUILTIN_DEFAULT_AGENT || Object.hasOwn(agents, name)) return;
      const known = [...Object.keys(agents), BUILTIN_DEFAULT_AGENT].map((n) => JSON.stringify(n)).join(', ');
      ctx.addIssue({
        code: 'custom',
        path: ['defaultAgent'],
        message: `no agent named ${JSON.stringify(name)}; expected one of ${known}`,
        input: name,
      });
    },
    { when: () => true },
  )
  .transform((config) => ({
    ...config,
    approvals: { ...config.approvals, permission: config.approvals.permission ?? config.trigger.permission },
    defaultAgent: config.defaultAgent ?? Object.keys(config.agents)[0] ?? BUILTIN_DEFAULT_AGENT,
  }))
  .meta({
    title: 'agent-mux repository configuration',
    description:
      'The per-repository configuration of agent-mux, read from .github/agent-mux.yml on the default branch.',
  });

/** A parsed repository configuration: defaults filled, durations in milliseconds. */
export type RepoConfig = z.output<typeof repoConfigSchema>;
/** A repository configuration as written in `.github/agent-mux.yml`. */
export type RepoConfigInput = z.input<typeof repoConfigSchema>;
/** One entry of `agents`. */
export type RepoAgent = RepoConfig['agents'][string];

/** The configuration of a repository without `.github/agent-mux.yml`. */
export function defaultRepoConfig(): RepoConfig {
  return repoConfigSchema.parse({});
}

/**
 * Keys of one agent that mean nothing for its adapter (they would be dropped without a word): `url`
 * on any adapter but a remote one, `options` on a built-in adapter. Adapter ids the schema does not
 * know (configured by a host) are not judged. `agent` may be any input (the check runs on invalid
 * configs too).
 */
function meaninglessAgentKeys(agent: unknown): { key: 'url' | 'options'; message: string }[] {
  if (typeof agent !== 'object' || agent === null) return [];
  const { adapter, url, options } = agent as { adapter?: unknown; url?: unknown; options?: unknown };
  if (typeof adapter !== 'string') return [];
  const builtin = (builtinAdapterIds as readonly string[]).includes(adapter);
  const local = builtin || (localConfigTypes as readonly string[]).includes(adapter);
  const issues: { key: 'url' | 'options'; message: string }[] = [];
  if (url !== undefined && local) {
    issues.push({
      key: 'url',
      message: `means nothing for adapter "${adapter}", which runs on this host; an agent on another host needs adapter: ${remoteAdapterTypes.join(' or ')} with this url`,
    });
  }
  if (options !== undefined && builtin) {
    issues.push({
      key: 'options',
      message: `means nothing for the built-in adapter "${adapter}", which takes no options (set the model with model:)`,
    });
  }
  return issues;
}
