import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readTriggerEvent } from '../../../src/github/trigger/read-trigger-event.ts';
import type { TriggerEvent } from '../../../src/github/trigger/trigger-event.ts';
import { TriggerPayloadError } from '../../../src/github/trigger/trigger-payload-error.ts';

interface WebhookGroup {
  name: string;
  actions: string[];
  examples: Record<string, unknown>[];
}

const require = createRequire(import.meta.url);
const groups = require('@octokit/webhooks-examples/api.github.com/index.json') as WebhookGroup[];

function examplesOf(name: string): Record<string, unknown>[] {
  const group = groups.find((g) => g.name === name);
  if (!group) throw new Error(`no examples for ${name}`);
  return group.examples;
}

/** The value at a dotted path (`comment.user.login`), or undefined. */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * A deep copy of the first example of `name` (with `action` when given), with each dotted path set to its value
 * (`undefined` deletes the field).
 */
function example(name: string, action: string | undefined, changes: Record<string, unknown> = {}): unknown {
  const found = examplesOf(name).find((e) => action === undefined || e.action === action);
  if (!found) throw new Error(`no ${name}.${action} example`);
  const copy = structuredClone(found);
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    const last = keys.pop()!;
    const parent = keys.length === 0 ? copy : at(copy, keys.join('.'));
    if (typeof parent !== 'object' || parent === null) throw new Error(`no parent for ${path}`);
    if (value === undefined) delete (parent as Record<string, unknown>)[last];
    else (parent as Record<string, unknown>)[last] = value;
  }
  return copy;
}

const triggering: Record<string, string[] | null> = {
  issue_comment: ['created'],
  pull_request_review_comment: ['created'],
  pull_request_review: ['submitted'],
  issues: ['opened', 'assigned', 'labeled'],
  pull_request: ['opened', 'synchronize', 'reopened', 'ready_for_review'],
  workflow_dispatch: null,
};

function expectWellFormed(event: TriggerEvent, name: string, p: unknown): void {
  expect(event.eventName).toBe(name);
  expect(event.repo).toEqual({ owner: at(p, 'repository.owner.login'), repo: at(p, 'repository.name') });
  expect(event.actor).toEqual({ login: at(p, 'sender.login'), type: at(p, 'sender.type') });
  expect(typeof event.text).toBe('string');
  expect(typeof event.title).toBe('string');
  expect(typeof event.issueBody).toBe('string');
  if (at(p, 'installation')) expect(event.installationId).toBe(at(p, 'installation.id'));
  else expect(event).not.toHaveProperty('installationId');
  const item = at(p, 'issue') ?? at(p, 'pull_request');
  if (item) {
    expect(event.number).toBe(at(item, 'number'));
    expect(event.title).toBe(at(item, 'title'));
    expect(event.issueBody).toBe(at(item, 'body') ?? '');
  }
  switch (name) {
    case 'issue_comment':
      expect(event.source).toEqual({ kind: 'issue_comment', commentId: at(p, 'comment.id') });
      expect(event.text).toBe(at(p, 'comment.body'));
      expect(event.isPullRequest).toBe(at(p, 'issue.pull_request') != null);
      break;
    case 'pull_request_review_comment':
      expect(event.source).toEqual({ kind: 'review_comment', commentId: at(p, 'comment.id') });
      expect(event.text).toBe(at(p, 'comment.body'));
      expect(event.isPullRequest).toBe(true);
      expect(event.headSha).toBe(at(p, 'pull_request.head.sha'));
      break;
    case 'pull_request_review':
      expect(event.source).toEqual({ kind: 'review', reviewId: at(p, 'review.id'), state: at(p, 'review.state') });
      expect(event.text).toBe(at(p, 'review.body') ?? '');
      expect(event.headSha).toBe(at(p, 'pull_request.head.sha'));
      break;
    case 'issues':
      expect(event.source).toMatchObject({ kind: 'issue', action: at(p, 'action') });
      expect(event.text).toBe(at(p, 'issue.body') ?? '');
      break;
    case 'pull_request':
      expect(event.source).toEqual({
        kind: 'pull_request',
        action: at(p, 'action'),
        draft: at(p, 'pull_request.draft') === true,
      });
      expect(event.text).toBe('');
      expect(event.isPullRequest).toBe(true);
      expect(event.headSha).toBe(at(p, 'pull_request.head.sha'));
      break;
    default:
      expect(event.source).toEqual({ kind: 'dispatch' });
      expect(event.title).toBe('');
      expect(event.isPullRequest).toBe(false);
  }
}

describe('readTriggerEvent on every @octokit/webhooks-examples payload', () => {
  const cases = Object.keys(triggering).flatMap((name) =>
    examplesOf(name).map((payload, index) => ({ name, index, payload })),
  );

  it('covers every action of these events', () => {
    expect(cases.length).toBeGreaterThanOrEqual(49);
  });

  it.each(cases)('$name #$index ($payload.action)', ({ name, payload }) => {
    const actions = triggering[name];
    const event = readTriggerEvent(name, payload);
    if (actions && !actions.includes(String(payload.action))) {
      expect(event).toBeUndefined();
      return;
    }
    expect(event).toBeDefined();
    expectWellFormed(event!, name, payload);
  });

  it('ignores events that never start anything', () => {
    for (const group of groups) {
      if (Object.hasOwn(triggering, group.name)) continue;
      for (const payload of group.examples) expect(readTriggerEvent(group.name, payload)).toBeUndefined();
    }
  });
});

describe('readTriggerEvent on edited payloads', () => {
  it.each([
    ['issue_comment', 'edited'],
    ['issue_comment', 'deleted'],
    ['pull_request_review_comment', 'edited'],
    ['pull_request_review', 'dismissed'],
    ['issues', 'edited'],
    ['issues', 'closed'],
    ['issues', 'unlabeled'],
  ])('%s.%s starts nothing', (name, action) => {
    const payload = example(name, undefined, { action });
    expect(readTriggerEvent(name, payload)).toBeUndefined();
  });

  it('an issue comment on a pull request', () => {
    const payload = example('issue_comment', 'created', {
      'issue.pull_request': { url: 'https://api.github.com/repos/o/r/pulls/1' },
      'comment.body': '@agent fix it',
    });
    const event = readTriggerEvent('issue_comment', payload)!;
    expect(event.isPullRequest).toBe(true);
    expect(event.text).toBe('@agent fix it');
    expect(event).not.toHaveProperty('headSha');
  });

  it('an issue comment with an installation', () => {
    const payload = example('issue_comment', 'created', { installation: { id: 42, node_id: 'x' } });
    expect(readTriggerEvent('issue_comment', payload)?.installationId).toBe(42);
  });

  it('a bot sender', () => {
    const payload = example('issue_comment', 'created', { 'sender.login': 'renovate[bot]', 'sender.type': 'Bot' });
    expect(readTriggerEvent('issue_comment', payload)?.actor).toEqual({ login: 'renovate[bot]', type: 'Bot' });
  });

  it('a review without a body', () => {
    const payload = example('pull_request_review', 'submitted', {
      'review.body': null,
      'review.state': 'changes_requested',
    });
    const event = readTriggerEvent('pull_request_review', payload)!;
    expect(event.text).toBe('');
    expect(event.source).toMatchObject({ kind: 'review', state: 'changes_requested' });
  });

  it('an issue opened without a body', () => {
    const payload = example('issues', 'opened', { 'issue.body': null });
    const event = readTriggerEvent('issues', payload)!;
    expect(event.text).toBe('');
    expect(event.issueBody).toBe('');
    expect(event.source).toEqual({ kind: 'issue', action: 'opened' });
  });

  it('an issue labeled and assigned', () => {
    const labeled = readTriggerEvent('issues', example('issues', 'labeled'))!;
    expect(labeled.source).toEqual({ kind: 'issue', action: 'labeled', label: 'bug' });
    const assigned = readTriggerEvent('issues', example('issues', 'assigned'))!;
    expect(assigned.source).toEqual({ kind: 'issue', action: 'assigned', assignee: 'Codertocat' });
  });

  it.each([
    [{ prompt: 'fix the build', 'issue-number': '12' }, 'fix the build', 12],
    [{ prompt: 'x', 'issue-number': '#7' }, 'x', 7],
    [{ prompt: 'x', 'issue-number': 7 }, 'x', 7],
    [{ prompt: 'x', 'issue-number': '' }, 'x', undefined],
    [{ prompt: 'x', 'issue-number': 'abc' }, 'x', undefined],
    [{ prompt: 'x', 'issue-number': '0' }, 'x', undefined],
    [{}, '', undefined],
    [null, '', undefined],
  ])('workflow_dispatch inputs %j', (inputs, text, number) => {
    const event = readTriggerEvent('workflow_dispatch', example('workflow_dispatch', undefined, { inputs }))!;
    expect(event.text).toBe(text);
    expect(event.number).toBe(number);
    expect(event.source).toEqual({ kind: 'dispatch' });
    expect(event.issueBody).toBe('');
  });

  it('a triggering payload without a needed field is a TriggerPayloadError', () => {
    const payload = example('issue_comment', 'created', { 'comment.id': undefined });
    let caught: unknown;
    try {
      readTriggerEvent('issue_comment', payload);
    } catch (error) {
      caught = error;
    }
    expect(TriggerPayloadError.isInstance(caught)).toBe(true);
    expect((caught as TriggerPayloadError).message).toContain('comment.id');
  });

  it.each([null, 'text', 42, {}])('a payload of %j without an action starts nothing', (payload) => {
    expect(readTriggerEvent('issue_comment', payload)).toBeUndefined();
  });
});
