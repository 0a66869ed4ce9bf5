/**
 * The app as it is deployed: the real `probot run ./src/app/index.ts` in a child process, talking to
 * the fake GitHub (as a GitHub Enterprise host) and cloning a real bare repository, driven only by
 * signed webhooks over HTTP.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeCheckRun } from '../support/fake-github/fake-github.ts';
import { commentEvent } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { awaitingApproval, type Harness, startHarness, waitFor } from './app-harness.ts';

/** Probot's Octokit spaces write requests about a second apart (the throttling plugin), so a run takes ~15 s here. */
const RUN_TIMEOUT_MS = 120_000;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function completed(h: Harness): Promise<FakeCheckRun> {
  return waitFor(h, 'a completed check run', () =>
    h.w.gh.state.checkRuns(h.w.repo).find((c) => c.status === 'completed'),
  );
}

/** The `check_run.requested_action` webhook GitHub sends when `login` presses a button of `check`. */
function buttonPress(h: Harness, check: FakeCheckRun, identifier: string, login: string): Record<string, unknown> {
  const payload = webhookPayload('check_run', 'requested_action', {
    owner: h.w.repo.owner,
    repo: h.w.repo.repo,
    login,
  });
  const run = payload.check_run as Record<string, unknown>;
  Object.assign(run, {
    id: check.id,
    name: check.name,
    head_sha: check.headSha,
    external_id: check.externalId,
    status: check.status,
    conclusion: null,
  });
  if (typeof run.app === 'object' && run.app !== null) Object.assign(run.app, { id: 1, slug: 'agent-mux' });
  payload.requested_action = { identifier };
  return payload;
}

describe('probot run ./src/app/index.ts', () => {
  it(
    'refuses a badly signed delivery, then runs a mention through approval by the check run button to a pull request',
    async () => {
      const h = await startHarness(cleanups);
      const { w } = h;
      w.gh.state.addIssue(w.repo, {
        number: 12,
        title: 'Fix the README typo',
        body: 'It says projcet.',
        user: 'alice',
      });
      const mention = commentEvent(w, 12, 'alice', '@agent demo: fix the typo please');
      const deliveryId = randomUUID();

      // A forged delivery is refused before anything is recorded: the genuine one with the same
      // delivery id is then not taken for a redelivery.
      const forged = await h.send('issue_comment', mention.payload, { id: deliveryId, secret: 'not-the-secret' });
      expect(forged.status).toBeGreaterThanOrEqual(400);
      expect(forged.status).toBeLessThan(500);
      const genuine = await h.send('issue_comment', mention.payload, { id: deliveryId });
      expect(genuine.status).toBe(200);
      // GitHub redelivers: same delivery id, nothing new starts.
      expect((await h.send('issue_comment', mention.payload, { id: deliveryId })).status).toBe(200);

      const pending = await awaitingApproval(h);
      expect(pending.name).toBe('agent-mux / demo');

      // A reader's press is ignored; the maintainer's approves.
      expect((await h.send('check_run', buttonPress(h, pending, pending.approve, 'mallory'))).status).toBe(200);
      expect((await h.send('check_run', buttonPress(h, pending, pending.approve, 'bob'))).status).toBe(200);

      const check = await completed(h);
      expect(check.conclusion).toBe('success');
      const pulls = await waitFor(h, 'a pull request', () => {
        const list = w.gh.state.pulls(w.repo);
        return list.length > 0 ? list : undefined;
      });
      expect(pulls).toHaveLength(1);
      expect(pulls[0]?.body).toContain('Closes #12');
      expect(await w.git(['show', `${pulls[0]?.headRef}:README.md`], w.bare)).toContain('This project shows');
      expect(w.gh.state.checkRuns(w.repo)).toHaveLength(1);

      const tracking = await waitFor(h, 'the tracking comment naming the pull request', () =>
        w.gh.state
          .comments(w.repo, 12)
          .find((c) => c.body.startsWith('<!-- agent-mux:run:') && c.body.includes(`/pull/${pulls[0]?.number}`)),
      );
      expect(tracking.body).toMatch(/approved by @\u200bbob/);
      expect(tracking.body).not.toMatch(/approved by @\u200bmallory/);
      // The app authenticated as an app (JWT) only to get installation tokens.
      expect(w.gh.requests.some((r) => r.operationId === 'apps/create-installation-access-token')).toBe(true);
      w.gh.assertNoViolations();
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'takes an APPROVED review on the pull request as the approval and pushes the fix to its branch',
    async () => {
      const h = await startHarness(cleanups);
      const { w } = h;
      const head = await w.commit('docs', { 'docs.md': 'docs\n' }, 'docs');
      w.gh.state.addPull(w.repo, {
        number: 21,
        title: 'Docs',
        headRef: 'docs',
        headSha: head,
        baseRef: 'main',
        user: 'alice',
      });
      const mention = commentEvent(w, 21, 'alice', '@agent fix the README typo', { pr: true });
      expect((await h.send('issue_comment', mention.payload)).status).toBe(200);

      const pending = await awaitingApproval(h);
      expect(pending.headSha).toBe(head);

      // A review counts from the second after the ask (GitHub's times are whole seconds).
      await new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));
      const review = w.gh.state.addReview(w.repo, 21, {
        state: 'APPROVED',
        body: 'go ahead',
        user: 'bob',
        commitId: head,
      });
      const payload = webhookPayload(
        'pull_request_review',
        'submitted',
        { owner: w.repo.owner, repo: w.repo.repo, login: 'bob', number: 21, title: 'Docs', body: 'go ahead' },
        (p) => p.installation !== undefined,
      );
      Object.assign(payload.review as Record<string, unknown>, {
        id: review.id,
        state: 'approved',
        commit_id: head,
        submitted_at: review.submittedAt,
      });
      const pull = payload.pull_request as Record<string, Record<string, unknown>>;
      Object.assign(pull.head ?? {}, { sha: head, ref: 'docs' });
      expect((await h.send('pull_request_review', payload)).status).toBe(200);

      const check = await completed(h);
      expect(check.conclusion).toBe('success');
      expect(check.headSha).toBe(head);
      await waitFor(h, 'the fix on the pull request branch', async () =>
        (await w.git(['rev-parse', 'docs'], w.bare)).trim() === head ? undefined : true,
      );
      expect(await w.git(['show', 'docs:README.md'], w.bare)).toContain('This project shows');
      expect(w.gh.state.pulls(w.repo)).toHaveLength(1);
      w.gh.assertNoViolations();
    },
    RUN_TIMEOUT_MS,
  );
});
