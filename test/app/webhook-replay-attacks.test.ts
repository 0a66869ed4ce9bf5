import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchEvent } from '../../src/app/dispatch-event.ts';
import type { InstallationAccess } from '../../src/app/installation-access.ts';
import type { StoredAnswer } from '../../src/app/store/run-store.ts';
import { commentEvent } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { type AppWorld, createAppWorld, INSTALLATION_ID, WEBHOOK_SECRET } from './app-world.ts';
import { makeJob } from './store/run-store-fixtures.ts';

/**
 * Red-team suite, class "a captured signed webhook, re-sent": every delivery here is signed with the
 * app's secret and verified by Probot, as GitHub's would be; the attacker re-sends what GitHub once
 * sent (or an edit event) under a new delivery id. A row that fails names the attack that works again.
 */

const CONFIG = 'agents:\n  demo:\n    adapter: demo\napprovals:\n  users: [bob]\n  timeout: 20s\n';

let a: AppWorld;
let head: string;
let issueNumber = 100;
let deliveries = 0;

beforeAll(async () => {
  a = await createAppWorld({ config: CONFIG });
  head = await a.w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
  a.w.gh.state.addPull(a.w.repo, {
    number: 21,
    title: 'Docs',
    headRef: 'docs',
    headSha: head,
    baseRef: 'main',
    user: 'alice',
  });
});
afterAll(async () => {
  await a.close();
});

/** Delivers `payload` signed, through Probot's verification; returns the delivery id. */
async function deliver(name: string, payload: Record<string, unknown>, id = `signed-${++deliveries}`): Promise<string> {
  payload.installation = { id: INSTALLATION_ID, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };
  const body = JSON.stringify(payload);
  const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
  await a.probot.webhooks.verifyAndReceive({ id, name: name as 'issue_comment', payload: body, signature });
  return id;
}

function freshIssue(): number {
  const number = ++issueNumber;
  a.w.gh.state.addIssue(a.w.repo, { number, title: `Issue ${number}`, body: '', user: 'alice' });
  return number;
}

/** Everything one attack led to: runs queued on the issue, answers stored for it. */
async function effects(number: number): Promise<{ runs: number; answers: StoredAnswer[] }> {
  await a.runtime.dispatchPending();
  const issueKey = `octo/demo#${number}`;
  return { runs: (await a.store.list({ issueKey })).length, answers: await a.store.takeAnswers(issueKey) };
}

function reviewPayload(login: string) {
  const stored = a.w.gh.state.addReview(a.w.repo, 21, { state: 'APPROVED', user: login, commitId: head });
  const payload = webhookPayload('pull_request_review', 'submitted', {
    owner: 'octo',
    repo: 'demo',
    login,
    number: 21,
    body: '',
  });
  Object.assign(payload.review as object, {
    id: stored.id,
    state: 'approved',
    commit_id: head,
    submitted_at: stored.submittedAt,
  });
  return payload;
}

function buttonPayload(login: string, identifier: string, externalId: string) {
  const payload = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login });
  Object.assign(payload.check_run as object, { id: 555, external_id: externalId });
  payload.requested_action = { identifier };
  return payload;
}

/** The dispatcher must decide on an edited comment before it asks GitHub anything. */
const noAccess: InstallationAccess = {
  api: () => Promise.reject(new Error('no GitHub access in this test')),
  token: () => Promise.reject(new Error('no GitHub access in this test')),
};

interface Attack {
  attack: string;
  /** Sends the legitimate delivery and then the attack; returns the issue whose effects count. */
  run(): Promise<number>;
  /** What the legitimate delivery alone leads to: the attack must add nothing. */
  expected: { runs: number; answers: number };
}

const attacks: Attack[] = [
  {
    attack: 'a mention re-sent under a new delivery id starts a second run',
    async run() {
      const n = freshIssue();
      const { payload } = commentEvent(a.w, n, 'alice', '@agent fix it');
      await deliver('issue_comment', structuredClone(payload));
      await deliver('issue_comment', structuredClone(payload));
      return n;
    },
    expected: { runs: 1, answers: 0 },
  },
  {
    attack: 'a mention re-sent under the same delivery id starts a second run',
    async run() {
      const n = freshIssue();
      const { payload } = commentEvent(a.w, n, 'alice', '@agent fix it');
      await deliver('issue_comment', structuredClone(payload), `same-${n}`);
      await deliver('issue_comment', structuredClone(payload), `same-${n}`);
      return n;
    },
    expected: { runs: 1, answers: 0 },
  },
  {
    attack: 'a comment edited into a mention starts a run',
    async run() {
      const n = freshIssue();
      const { payload } = commentEvent(a.w, n, 'alice', 'thanks!');
      payload.action = 'edited';
      (payload.comment as { body: string }).body = '@agent fix it';
      await deliver('issue_comment', payload);
      return n;
    },
    expected: { runs: 0, answers: 0 },
  },
  {
    attack: 'a comment edited into /approve answers an approval',
    async run() {
      const n = freshIssue();
      const { payload } = commentEvent(a.w, n, 'bob', 'looks fine');
      payload.action = 'edited';
      (payload.comment as { body: string }).body = '/approve k3v9q2xa';
      await deliver('issue_comment', payload);
      return n;
    },
    expected: { runs: 0, answers: 0 },
  },
  {
    attack: 'an /approve comment re-sent under a new delivery id answers again',
    async run() {
      const n = freshIssue();
      const { payload } = commentEvent(a.w, n, 'bob', '/approve k3v9q2xa');
      await deliver('issue_comment', structuredClone(payload));
      await deliver('issue_comment', structuredClone(payload));
      return n;
    },
    expected: { runs: 0, answers: 1 },
  },
  {
    attack: "an approving review re-sent under a new delivery id answers a later run's request",
    async run() {
      const payload = reviewPayload('bob');
      await deliver('pull_request_review', structuredClone(payload));
      await deliver('pull_request_review', structuredClone(payload));
      return 21;
    },
    expected: { runs: 0, answers: 1 },
  },
  {
    attack: 'a button press re-sent under a new delivery id answers again',
    async run() {
      const n = freshIssue();
      const { run } = await a.store.enqueue({
        job: makeJob({ number: n }),
        installationId: INSTALLATION_ID,
        adapter: 'demo',
        perIssue: 'queue',
      });
      const payload = buttonPayload('bob', 'approve:k3v9q2xa', run.id);
      await deliver('check_run', structuredClone(payload));
      await deliver('check_run', structuredClone(payload));
      return n;
    },
    expected: { runs: 1, answers: 1 },
  },
  {
    attack: 'a label event re-sent under a new delivery id starts a second run',
    async run() {
      const n = freshIssue();
      const payload = webhookPayload('issues', 'labeled', { owner: 'octo', repo: 'demo', login: 'alice', number: n });
      Object.assign(payload.label as object, { name: 'agent' });
      Object.assign(payload.issue as object, { id: 900_000 + n, updated_at: '2030-01-01T00:00:00Z' });
      await deliver('issues', structuredClone(payload));
      await deliver('issues', structuredClone(payload));
      return n;
    },
    expected: { runs: 1, answers: 0 },
  },
];

describe('attacks: re-sent and edited webhooks', () => {
  it.each(attacks)('$attack', async ({ run, expected }) => {
    const n = await run();
    const found = await effects(n);
    expect({ runs: found.runs, answers: found.answers.length }).toEqual(expected);
  });

  it('not over-eager: two comments, and a label given again later, each start a run', async () => {
    const n = freshIssue();
    await deliver('issue_comment', commentEvent(a.w, n, 'alice', '@agent fix it').payload);
    await deliver('issue_comment', commentEvent(a.w, n, 'alice', '@agent and the docs').payload);
    const payload = webhookPayload('issues', 'labeled', { owner: 'octo', repo: 'demo', login: 'alice', number: n });
    Object.assign(payload.label as object, { name: 'agent' });
    Object.assign(payload.issue as object, { id: 900_000 + n, updated_at: '2030-01-01T00:00:00Z' });
    await deliver('issues', structuredClone(payload));
    Object.assign(payload.issue as object, { updated_at: '2030-01-01T00:05:00Z' });
    await deliver('issues', structuredClone(payload));
    expect((await effects(n)).runs).toBe(4);
  });

  it('an answer from a review carries its submission time (a review answers only requests asked before it)', async () => {
    const payload = reviewPayload('bob');
    await deliver('pull_request_review', payload);
    const [answer] = (await effects(21)).answers;
    expect(answer).toMatchObject({
      kind: 'answer',
      answer: { via: 'review', givenAt: (payload.review as { submitted_at: string }).submitted_at },
    });
  });

  it('the dispatcher ignores an edited comment even if one is recorded', async () => {
    const n = freshIssue();
    const { payload } = commentEvent(a.w, n, 'alice', '@agent fix it');
    payload.action = 'edited';
    const result = await dispatchEvent(
      { store: a.store, access: noAccess, selfLogins: ['agent-mux[bot]'], registry: a.w.registry, log: () => {} },
      { deliveryId: 'edited-1', name: 'issue_comment', payload, installationId: INSTALLATION_ID, receivedAt: 1 },
    );
    expect(result).toEqual({ kind: 'ignored', reason: 'issue_comment.edited starts and answers nothing' });
    expect((await effects(n)).runs).toBe(0);
  });
});
