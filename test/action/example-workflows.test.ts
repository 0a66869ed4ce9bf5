import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  type ExpressionValue,
  evaluateWorkflowCondition,
  renderWorkflowTemplate,
  WorkflowExpressionError,
} from '../support/evaluate-workflow-expression.ts';

const root = new URL('../../', import.meta.url).pathname;

type Workflow = {
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  on: Record<string, { types?: string[] } | null>;
  jobs: Record<string, { if?: string; steps: { uses?: string }[] }>;
};

/** The README's Action workflow: its ```yaml block that uses the Action. */
function readmeWorkflow(): string {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .find((text) => text.includes('uses: agent-mux/agent-mux@'));
  if (block === undefined) throw new Error('README.md has no workflow that uses agent-mux/agent-mux');
  return block;
}

const workflows: [string, string][] = [
  ...['claude-code.yml', 'codex.yml', 'remote-pi.yml', 'several-agents.yml'].map((file): [string, string] => [
    `examples/workflows/${file}`,
    readFileSync(`${root}examples/workflows/${file}`, 'utf8'),
  ]),
  ['README.md', readmeWorkflow()],
];

type Sample = { name: string; event: string; action?: string; payload: Record<string, ExpressionValue>; run: boolean };

const issue = (body: string | null): Record<string, ExpressionValue> => ({ number: 7, title: 'Flaky test', body });
const pull = (body: string | null): Record<string, ExpressionValue> => ({ number: 8, title: 'Fix', body });

const samples: Sample[] = [
  {
    name: 'a mention in an issue comment',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue('The test fails'), comment: { body: '@agent fix the flaky test' } },
    run: true,
  },
  {
    name: 'a mention naming an agent',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue(null), comment: { body: 'please @agent codex: fix the flaky test' } },
    run: true,
  },
  {
    name: '@agent cancel',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue('x'), comment: { body: '@agent cancel' } },
    run: true,
  },
  {
    name: 'an unrelated comment',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue('The test fails'), comment: { body: 'Thanks, looks good to me' } },
    run: false,
  },
  {
    name: 'an unrelated comment on an issue whose body mentions the phrase',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue('@agent fix the typo'), comment: { body: 'Any news?' } },
    run: false,
  },
  {
    name: 'an approval answer (read by the job that asked)',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue('@agent fix it'), comment: { body: '/approve 2' } },
    run: false,
  },
  {
    name: 'a denial',
    event: 'issue_comment',
    action: 'created',
    payload: { issue: issue('x'), comment: { body: '/deny 2 not that file' } },
    run: false,
  },
  {
    name: 'a mention in a review comment',
    event: 'pull_request_review_comment',
    action: 'created',
    payload: { pull_request: pull('x'), comment: { body: '@agent rename this variable' } },
    run: true,
  },
  {
    name: 'an unrelated review comment on a pull request whose body mentions the phrase',
    event: 'pull_request_review_comment',
    action: 'created',
    payload: { pull_request: pull('Made by @agent'), comment: { body: 'nit: typo' } },
    run: false,
  },
  {
    name: 'a review with the phrase',
    event: 'pull_request_review',
    action: 'submitted',
    payload: { pull_request: pull('x'), review: { body: '@agent address these comments', state: 'commented' } },
    run: true,
  },
  {
    name: 'an approving review without a body',
    event: 'pull_request_review',
    action: 'submitted',
    payload: { pull_request: pull('@agent wrote this'), review: { body: null, state: 'approved' } },
    run: false,
  },
  {
    name: 'an issue opened with the phrase',
    event: 'issues',
    action: 'opened',
    payload: { issue: issue('@agent add a --json flag') },
    run: true,
  },
  {
    name: 'an issue opened without the phrase',
    event: 'issues',
    action: 'opened',
    payload: { issue: issue('The command line crashes') },
    run: false,
  },
  {
    name: 'an issue opened without a body',
    event: 'issues',
    action: 'opened',
    payload: { issue: issue(null) },
    run: false,
  },
  {
    name: 'the trigger label',
    event: 'issues',
    action: 'labeled',
    payload: { issue: issue('Fix it'), label: { name: 'agent' } },
    run: true,
  },
  {
    name: 'another label on an issue that mentions the phrase',
    event: 'issues',
    action: 'labeled',
    payload: { issue: issue('@agent fix it'), label: { name: 'bug' } },
    run: false,
  },
  {
    name: 'an assignment (the Action checks the assignee)',
    event: 'issues',
    action: 'assigned',
    payload: { issue: issue('Fix it'), assignee: { login: 'github-actions[bot]' } },
    run: true,
  },
  {
    name: 'a manual dispatch',
    event: 'workflow_dispatch',
    payload: { inputs: { prompt: 'update the docs' } },
    run: true,
  },
];

function subscribes(workflow: Workflow, sample: Sample): boolean {
  if (!Object.hasOwn(workflow.on, sample.event)) return false;
  const types = workflow.on[sample.event]?.types;
  return types === undefined || sample.action === undefined || types.includes(sample.action);
}

function contextOf(sample: Sample): Record<string, ExpressionValue> {
  const event = sample.action === undefined ? sample.payload : { action: sample.action, ...sample.payload };
  return { github: { event_name: sample.event, event } };
}

function starts(condition: string, sample: Sample): boolean {
  return evaluateWorkflowCondition(condition, contextOf(sample));
}

const sampleNamed = (name: string): Sample => {
  const sample = samples.find((s) => s.name === name);
  if (!sample) throw new Error(`no sample ${name}`);
  return sample;
};

describe.each(workflows)('%s: the job filter', (_name, text) => {
  const workflow = parse(text) as Workflow;
  const condition = workflow.jobs.agent?.if;
  const relevant = samples.filter((sample) => subscribes(workflow, sample));

  it('has an if: on the job that runs the Action', () => {
    expect(workflow.jobs.agent?.steps.some((step) => step.uses?.startsWith('agent-mux/agent-mux@'))).toBe(true);
    expect(condition).toEqual(expect.stringContaining("'@agent'"));
  });

  it('checks out without persisting the token in .git/config (the agent could read it)', () => {
    const checkouts = Object.values(workflow.jobs).flatMap((job) =>
      job.steps.filter((step) => step.uses?.startsWith('actions/checkout@')),
    );
    expect(checkouts.length).toBeGreaterThan(0);
    for (const step of checkouts)
      expect((step as { with?: Record<string, unknown> }).with?.['persist-credentials']).toBe(false);
  });

  it('starts a job for every event and action the workflow subscribes to', () => {
    for (const [event, spec] of Object.entries(workflow.on)) {
      for (const action of spec?.types ?? [undefined]) {
        const wanted = samples.filter((s) => s.event === event && s.action === action && s.run);
        expect(wanted.length, `a sample for ${event}.${action}`).toBeGreaterThan(0);
        for (const sample of wanted) expect(starts(condition ?? '', sample), sample.name).toBe(true);
      }
    }
  });

  // only the events the workflow subscribes to reach its filter
  it.each(relevant.map((sample) => [sample.name, sample] as const))('%s', (_sample, sample) => {
    expect(starts(condition ?? '', sample)).toBe(sample.run);
  });

  it('filters out unrelated comments and keeps mentions', () => {
    expect(relevant.filter((s) => !s.run).length).toBeGreaterThan(0);
    expect(relevant.filter((s) => !s.run).every((s) => !starts(condition ?? '', s))).toBe(true);
    expect(relevant.filter((s) => s.run).every((s) => starts(condition ?? '', s))).toBe(true);
  });
});

describe.each(workflows)('%s: the concurrency group (issue 33.10: one pattern everywhere)', (_name, text) => {
  const workflow = parse(text) as Workflow & { jobs: Record<string, { concurrency?: Workflow['concurrency'] }> };
  const readme = parse(readmeWorkflow()) as typeof workflow;
  const concurrency = workflow.jobs.agent?.concurrency;
  const group = (sample: Sample): string => renderWorkflowTemplate(concurrency?.group ?? '', contextOf(sample));

  it('is on the job, as in the README: filtered-out comments (/approve) never enter it', () => {
    expect(workflow.concurrency).toBeUndefined();
    expect(concurrency).toEqual(readme.jobs.agent?.concurrency);
    expect(concurrency?.['cancel-in-progress']).toBe(false);
  });

  it('serializes the runs of one issue or pull request and keeps others apart', () => {
    expect(group(sampleNamed('a mention in an issue comment'))).toBe('agent-mux-7-run');
    expect(group(sampleNamed('an issue opened with the phrase'))).toBe('agent-mux-7-run');
    expect(group(sampleNamed('a review with the phrase'))).toBe('agent-mux-8-run');
  });

  it('puts "@agent cancel" in a group of its own, so it does not wait for the run it stops', () => {
    expect(group(sampleNamed('@agent cancel'))).toBe('agent-mux-7-cancel');
  });
});

describe.each([
  ...workflows,
  ['examples/workflows/review.yml', readFileSync(`${root}examples/workflows/review.yml`, 'utf8')] as [string, string],
])('%s: permissions', (_name, text) => {
  it('lets the token list the Actions cache, where a daily limit is counted (actions: read or write)', () => {
    const permissions = (parse(text) as { permissions?: Record<string, string> }).permissions ?? {};
    expect(['read', 'write']).toContain(permissions.actions);
  });
});

describe('evaluateWorkflowCondition', () => {
  const github: ExpressionValue = { event_name: 'issue_comment', event: { comment: { body: 'Hi @Agent' } } };

  it('follows GitHub: contains and == ignore case, a missing property is null', () => {
    expect(evaluateWorkflowCondition("contains(github.event.comment.body, '@agent')", { github })).toBe(true);
    expect(evaluateWorkflowCondition("github.event_name == 'ISSUE_COMMENT'", { github })).toBe(true);
    expect(evaluateWorkflowCondition("contains(github.event.review.body, '@agent')", { github })).toBe(false);
    expect(evaluateWorkflowCondition('github.event.review.body == null', { github })).toBe(true);
  });

  it('binds ! tighter than ==, == tighter than &&, && tighter than ||', () => {
    expect(evaluateWorkflowCondition('true || false && false', {})).toBe(true);
    expect(evaluateWorkflowCondition('(true || false) && false', {})).toBe(false);
    expect(evaluateWorkflowCondition("!contains('abc', 'x') && 'a' != 'b'", {})).toBe(true);
    expect(evaluateWorkflowCondition("${{ 'it''s' == 'IT''S' }}", {})).toBe(true);
  });

  it('refuses what it does not support', () => {
    expect(() => evaluateWorkflowCondition('fromJSON(github)', { github })).toThrow(WorkflowExpressionError);
    expect(() => evaluateWorkflowCondition('github.event[0]', { github })).toThrow(WorkflowExpressionError);
    expect(() => evaluateWorkflowCondition("'a' == ", {})).toThrow(WorkflowExpressionError);
  });
});

describe('examples/workflows/review.yml: the automatic review', () => {
  const workflow = parse(readFileSync(`${root}examples/workflows/review.yml`, 'utf8')) as Workflow & {
    jobs: Record<string, { concurrency?: Workflow['concurrency']; if?: string }>;
  };
  const job = workflow.jobs.review;
  const context = (head: string | null, draft: boolean) => ({
    github: {
      event_name: 'pull_request',
      repository: 'octo/demo',
      event: {
        action: 'synchronize',
        pull_request: { number: 8, draft, head: { repo: head === null ? null : { full_name: head } } },
      },
    },
  });

  it('runs for the repository’s own ready pull requests, never for a fork’s or a draft', () => {
    expect(workflow.on).toEqual({ pull_request: { types: ['opened', 'synchronize', 'reopened', 'ready_for_review'] } });
    expect(job?.steps.some((step) => step.uses?.startsWith('agent-mux/agent-mux@'))).toBe(true);
    expect(evaluateWorkflowCondition(job?.if ?? '', context('octo/demo', false))).toBe(true);
    expect(evaluateWorkflowCondition(job?.if ?? '', context('mallory/demo', false))).toBe(false);
    expect(evaluateWorkflowCondition(job?.if ?? '', context(null, false))).toBe(false);
    expect(evaluateWorkflowCondition(job?.if ?? '', context('octo/demo', true))).toBe(false);
  });

  it('lets a new push cancel the review of the commit before it, per pull request', () => {
    expect(job?.concurrency?.['cancel-in-progress']).toBe(true);
    expect(renderWorkflowTemplate(job?.concurrency?.group ?? '', context('octo/demo', false))).toBe(
      'agent-mux-review-8',
    );
  });
});
