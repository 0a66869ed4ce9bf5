/**
 * The app as it is deployed: the real `probot run ./src/app/index.ts` in a child process, talking to
 * the fake GitHub (as a GitHub Enterprise host) and cloning a real bare repository, driven only by
 * signed webhooks over HTTP.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeCheckRun } from '../support/fake-github/fake-github.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { APP_ENTRY, type ProbotProcess, startProbot } from './probot-process.ts';
import { sendWebhook } from './signed-webhook.ts';

const SECRET = 'e2e-webhook-secret';
/** Probot's Octokit spaces write requests about a second apart (the throttling plugin), so a run takes ~15 s here. */
const RUN_TIMEOUT_MS = 120_000;
const INSTALLATION_ID = 1;

/** The demo agent asks approval before it edits; maintainers (bob) may approve, readers (mallory) may not. */
const CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  users: []
  permission: maintain
  timeout: 120s
`;

interface Harness {
  w: GitHubWorld;
  app: ProbotProcess;
  /** Sends a delivery signed with the app's secret (or `secret`) to the app's webhook URL. */
  send(
    name: string,
    payload: Record<string, unknown>,
    options?: { id?: string; secret?: string },
  ): ReturnType<typeof sendWebhook>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A fake GitHub with `octo/demo` installed (installation 1), and `probot run` pointed at it. */
async function startHarness(): Promise<Harness> {
  const w = await createGitHubWorld({ config: CONFIG });
  cleanups.push(() => w.close());
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-e2e-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  // AGENT_MUX_GIT_BASE_URL/<owner>/<repo>.git must be the bare repository the fake's refs come from.
  const gitBase = join(root, 'git');
  await mkdir(join(gitBase, w.repo.owner), { recursive: true });
  await symlink(w.bare, join(gitBase, w.repo.owner, `${w.repo.repo}.git`));
  const home = join(root, 'home');
  await mkdir(home);

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = await startProbot({
    entry: APP_ENTRY,
    cwd: root,
    env: {
      HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      APP_ID: '1',
      PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      WEBHOOK_SECRET: SECRET,
      GHE_HOST: new URL(w.gh.url).host,
      GHE_PROTOCOL: 'http',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      AGENT_MUX_DATA_DIR: join(root, 'data'),
      AGENT_MUX_WORK_DIR: join(root, 'work'),
      AGENT_MUX_GIT_BASE_URL: gitBase,
      AGENT_MUX_WORKERS: '1',
    },
  });
  cleanups.push(() => app.stop());
  return {
    w,
    app,
    send: (name, payload, options = {}) =>
      sendWebhook(app.webhookUrl, options.secret ?? SECRET, {
        name,
        payload: withInstallation(payload),
        ...(options.id === undefined ? {} : { id: options.id }),
      }),
  };
}

function withInstallation(payload: Record<string, unknown>): Record<string, unknown> {
  return { ...payload, installation: { id: INSTALLATION_ID, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' } };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value; fails with the app's output when the time is up. */
async function waitFor<T>(
  h: Harness,
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const requests = h.w.gh.requests.map((r) => `${r.method} ${r.path} → ${r.status}`).join('\n');
      throw new Error(
        `timed out waiting for ${what}\n--- app output ---\n${h.app.output()}\n--- requests ---\n${requests}`,
      );
    }
    await sleep(50);
  }
}

/** The run's check run once it shows an Approve button. */
function awaitingApproval(h: Harness): Promise<FakeCheckRun & { approve: string }> {
  return waitFor(h, 'a check run with an Approve button', () => {
    for (const check of h.w.gh.state.checkRuns(h.w.repo)) {
      const approve = check.actions.find((a) => a.identifier.startsWith('approve:'));
      if (check.status !== 'completed' && approve !== undefined) return { ...check, approve: approve.identifier };
    }
    return undefined;
  });
}

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
      const h = await startHarness();
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
      const h = await startHarness();
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
      Object.assign(payload.review as Record<string, unknown>, { id: review.id, state: 'approved', commit_id: head });
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
