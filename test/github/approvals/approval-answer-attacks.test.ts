import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../../src/core/tools/approval-channel.ts';
import { createApprovalPoller } from '../../../src/github/approvals/approval-poller.ts';
import { createGitHubApprovalChannel } from '../../../src/github/approvals/github-approval-channel.ts';
import { systemClock } from '../../../src/github/pacing/clock.ts';
import { createGitHubWorld, type GitHubWorld, SELF_LOGIN } from '../../support/github-world.ts';

/**
 * Red-team suite, class "approvals from what is not a fresh answer", in the Action (answers read by
 * the poller from the fake GitHub). bob may approve; alice (write) may not, but may edit comments.
 * A row that fails names the attack that works again.
 */

let w: GitHubWorld;
let head: string;
let nextPull = 30;
let clockMs = Date.parse('2030-01-01T00:00:00Z');
const tick = (seconds: number) => {
  clockMs += seconds * 1000;
};

beforeAll(async () => {
  w = await createGitHubWorld();
  head = await w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
  w.gh.state.now = () => new Date(clockMs);
});
afterAll(async () => {
  await w.close();
});

interface Step {
  /** On pull request `number`, with GitHub's clock at the step's time. */
  (ctx: { number: number; approvalId?: string; earlier: Map<string, number> }): Promise<void>;
}

const say =
  (login: string, body: string, key?: string): Step =>
  async ({ number, earlier }) => {
    const comment = w.gh.state.addComment(w.repo, number, { body, user: login });
    if (key !== undefined) earlier.set(key, comment.id);
  };
/** alice edits a comment (another's) through the API: GitHub keeps its author. */
const edit =
  (key: string, body: (id: string) => string): Step =>
  async ({ approvalId, earlier }) => {
    await w.api.updateComment(w.repo, earlier.get(key)!, body(approvalId ?? ''));
  };
/** bob writes `/approve`, and GitHub records its `updated_at` a second after `created_at` though nobody edited it. */
const approveSkewed: Step = async ({ number, approvalId }) => {
  const comment = w.gh.state.addComment(w.repo, number, { body: `/approve ${approvalId}`, user: 'bob' });
  const record = w.gh.state.commentRecord(w.repo, comment.id);
  if (!record) throw new Error('no comment record');
  record.updatedAt = new Date(Date.parse(record.createdAt) + 1000).toISOString();
};
const review =
  (login: string): Step =>
  async ({ number }) => {
    w.gh.state.addReview(w.repo, number, { state: 'APPROVED', user: login, commitId: head });
  };
const approve =
  (login: string): Step =>
  async ({ number, approvalId }) => {
    w.gh.state.addComment(w.repo, number, { body: `/approve ${approvalId}`, user: login });
  };

interface Attack {
  attack: string;
  /** Before the run starts (older than the poller's `since`). */
  beforeRun?: Step[];
  /** During the run, before the approval is asked. */
  beforeAsk?: Step[];
  /** After it is asked. */
  afterAsk?: Step[];
  approved: boolean;
}

const attacks: Attack[] = [
  {
    attack: "a writer edits the approver's comment from before the run into /approve",
    beforeRun: [say('bob', 'LGTM in general', 'old')],
    afterAsk: [edit('old', (id) => `/approve ${id}`)],
    approved: false,
  },
  {
    attack: "a writer edits the approver's unrelated comment from the run into /approve",
    beforeAsk: [say('bob', 'I will look later', 'unrelated')],
    afterAsk: [edit('unrelated', (id) => `/approve ${id}`)],
    approved: false,
  },
  {
    attack: "a writer edits the approver's comment written after the request into /approve",
    afterAsk: [say('bob', 'let me check the arguments', 'fresh'), edit('fresh', (id) => `/approve ${id}`)],
    approved: false,
  },
  {
    attack: "a writer edits the approver's /deny into /approve before it is read",
    afterAsk: [say('bob', 'hmm', 'deny'), edit('deny', (id) => `/approve ${id}`)],
    approved: false,
  },
  {
    // Issue 33.6: in the same second, updated_at equals created_at; GitHub's lastEditedAt still tells.
    attack: "a writer edits the approver's /deny into /approve within the second it was written",
    afterAsk: [
      async (ctx) => {
        await say('bob', 'hmm', 'quick')(ctx);
        await edit('quick', (id) => `/approve ${id}`)(ctx);
      },
    ],
    approved: false,
  },
  {
    attack: 'an approving review submitted before the request answers it',
    beforeAsk: [review('bob')],
    approved: false,
  },
  {
    attack: 'an approving review from before the run answers it',
    beforeRun: [review('bob')],
    approved: false,
  },
  { attack: '(control) the approver writes /approve after the request', afterAsk: [approve('bob')], approved: true },
  {
    // Issue 33.6: unedited, but updated_at one second after created_at (as GitHub sometimes records).
    attack: '(control) an unedited /approve whose updated_at is a second after created_at counts',
    afterAsk: [approveSkewed],
    approved: true,
  },
  {
    attack: '(control) the approver reviews after the request',
    // From the second after the ask: GitHub's times are whole seconds.
    afterAsk: [async () => new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000))), review('bob')],
    approved: true,
  },
  { attack: '(control) a writer who may not approve writes /approve', afterAsk: [approve('alice')], approved: false },
];

async function play(steps: Step[] | undefined, ctx: Parameters<Step>[0]): Promise<void> {
  for (const step of steps ?? []) {
    tick(10);
    await step(ctx);
  }
}

/** The approval channel of pull request `number` (bob approves) and the Action's poller reading answers since `since`. */
function channelAndPoller(number: number, since: string) {
  const channel = createGitHubApprovalChannel({
    api: w.api,
    repo: w.repo,
    number,
    isPullRequest: true,
    agent: 'demo',
    rule: { users: ['bob'], teams: [], permission: 'admin' },
    requestReview: false,
    currentHead: async () => head,
    selfLogins: [SELF_LOGIN],
    redact: (text) => text,
    timeoutText: '20 s',
  });
  const poller = createApprovalPoller({
    api: w.api,
    repo: w.repo,
    number,
    isPullRequest: true,
    channel,
    phrase: '@agent',
    agents: ['demo'],
    selfLogins: [SELF_LOGIN],
    since,
    clock: systemClock,
  });
  return { channel, poller };
}

describe('attacks: approvals from edited, earlier or re-read answers (Action poller)', () => {
  it.each(attacks)('$attack', async ({ beforeRun, beforeAsk, afterAsk, approved }) => {
    const number = ++nextPull;
    w.gh.state.addPull(w.repo, {
      number,
      title: 'Docs',
      headRef: 'docs',
      headSha: head,
      baseRef: 'main',
      user: 'alice',
    });
    w.gh.state.setPermission(w.repo, 'bob', 'maintain');
    const ctx: Parameters<Step>[0] = { number, earlier: new Map() };
    await play(beforeRun, ctx);
    tick(60);
    const since = new Date(clockMs).toISOString();
    await play(beforeAsk, ctx);
    tick(10);

    const { channel, poller } = channelAndPoller(number, since);
    const controller = new AbortController();
    let decision: ApprovalDecision | undefined;
    const asked = channel
      .request(
        { approvalId: `ap${number}xyzw`, runId: 'r', toolName: 'write_file', input: { path: 'x' } },
        controller.signal,
      )
      .then((d) => {
        decision = d;
      });
    for (let i = 0; i < 200 && channel.pending.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    ctx.approvalId = channel.pending[0]?.approvalId;
    expect(ctx.approvalId).toBeDefined();
    await poller.pollOnce();
    await play(afterAsk, ctx);
    await poller.pollOnce();
    await poller.pollOnce();
    controller.abort();
    await asked;
    expect(decision?.kind === 'approve').toBe(approved);
  });

  it('an edited /approve is not counted, and GitHub is told why (not a silent time-out)', async () => {
    const number = ++nextPull;
    w.gh.state.addPull(w.repo, {
      number,
      title: 'Docs',
      headRef: 'docs',
      headSha: head,
      baseRef: 'main',
      user: 'alice',
    });
    w.gh.state.setPermission(w.repo, 'bob', 'maintain');
    tick(60);
    const since = new Date(clockMs).toISOString();
    const { channel, poller } = channelAndPoller(number, since);
    const controller = new AbortController();
    const asked = channel.request(
      { approvalId: `ap${number}edit`, runId: 'r', toolName: 'write_file', input: { path: 'x' } },
      controller.signal,
    );
    for (let i = 0; i < 200 && channel.pending.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const id = channel.pending[0]?.approvalId ?? '';
    tick(10);
    const comment = w.gh.state.addComment(w.repo, number, { body: 'checking', user: 'bob' });
    tick(10);
    await w.api.updateComment(w.repo, comment.id, `/approve ${id}`);
    await poller.pollOnce();
    expect(channel.pending).toHaveLength(1);
    const told = w.gh.state.comments(w.repo, number).map((c) => c.body);
    expect(told.some((b) => /edited after it was written.*not counted/.test(b))).toBe(true);
    controller.abort();
    expect((await asked).kind).toBe('deny');
  });
});
