import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckRunAnnotation } from '../../src/github/github-api.ts';
import { GitHubApiError } from '../../src/github/github-api-error.ts';
import type { GitHubApiHarness, MakeGitHubApiHarness } from './github-api-harness.ts';

/** The README on `main`; `feature` fixes its typo on line 3. */
export const CONTRACT_README = '# Demo project\n\nThis projcet shows how agent-mux runs an agent.\n';
const FIXED_README = '# Demo project\n\nThis project shows how agent-mux runs an agent.\n';
const CONFIG = 'defaultAgent: demo\n';

const gitEnv = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd, env: gitEnv, stdin: 'ignore' })).stdout.trim();
}

async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A checkout with `main` (README with a typo, config, docs/a.md) and `feature` (typo fixed, docs/new.md added). */
async function contractCheckout(root: string): Promise<string> {
  const checkout = join(root, 'checkout');
  await mkdir(checkout);
  await git(checkout, 'init', '-q', '-b', 'main');
  await writeFiles(checkout, { 'README.md': CONTRACT_README, '.github/agent-mux.yml': CONFIG, 'docs/a.md': 'a\n' });
  await git(checkout, 'add', '-A');
  await git(checkout, 'commit', '-q', '-m', 'initial');
  await git(checkout, 'checkout', '-q', '-b', 'feature');
  await writeFiles(checkout, { 'README.md': FIXED_README, 'docs/new.md': 'one\ntwo\nthree\n' });
  await git(checkout, 'add', '-A');
  await git(checkout, 'commit', '-q', '-m', 'fix the typo');
  await git(checkout, 'checkout', '-q', 'main');
  return checkout;
}

/** The status of the `GitHubApiError` a call rejects with (undefined when it resolves). */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    if (GitHubApiError.isInstance(error)) return error.status;
    throw error;
  }
  return undefined;
}

const annotation = (path: string): CheckRunAnnotation => ({
  path,
  startLine: 1,
  endLine: 1,
  level: 'notice',
  message: 'm',
});

/**
 * The contract every GitHub stand-in keeps through the `GitHubApi` port (the in-memory GitHub of
 * `agent-mux simulate`, and the HTTP fake reached through `createGitHubApi`): what each method
 * returns, what it stores, and which requests GitHub refuses (404, 409, 422). `make` gives a fresh
 * stand-in for `octo/demo` on a fresh bare repository for each test.
 */
export function describeGitHubApi(name: string, make: MakeGitHubApiHarness): void {
  describe(`GitHubApi contract: ${name}`, () => {
    let root: string;
    let checkout: string;
    let bares = 0;
    let bare: string;
    let h: GitHubApiHarness;
    let mainSha: string;
    let featureSha: string;

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'agent-mux-contract-'));
      checkout = await contractCheckout(root);
      mainSha = await git(checkout, 'rev-parse', 'main');
      featureSha = await git(checkout, 'rev-parse', 'feature');
    });
    afterAll(() => rm(root, { recursive: true, force: true }));
    beforeEach(async () => {
      bare = join(root, `bare-${bares++}.git`);
      await git(root, 'clone', '-q', '--bare', checkout, bare);
      h = await make(bare);
    });
    afterEach(async () => {
      await h.close();
    });

    /** The requests of a test that GitHub accepts must also match its description. */
    const expectNoViolations = () => expect(h.violations()).toEqual([]);

    describe('repository, permissions, teams, files', () => {
      it('getRepo describes the repository (owner and name compared case-insensitively); another is 404', async () => {
        expect(await h.api.getRepo(h.repo)).toEqual({
          fullName: 'octo/demo',
          defaultBranch: 'main',
          private: false,
          cloneUrl: h.cloneUrl('octo'),
          htmlUrl: 'https://github.com/octo/demo',
        });
        expect(await h.api.getRepo({ owner: 'OCTO', repo: 'Demo' })).toMatchObject({ fullName: 'octo/demo' });
        expect(await statusOf(h.api.getRepo({ owner: 'octo', repo: 'other' }))).toBe(404);
      });

      it('getPermission: seeded roles, the owner is admin, anyone else none', async () => {
        h.seed.role('alice', 'write');
        h.seed.role('Bob', 'maintain');
        h.seed.role('tria', 'triage');
        expect(await h.api.getPermission(h.repo, 'alice')).toBe('write');
        expect(await h.api.getPermission(h.repo, 'bob')).toBe('maintain');
        expect(await h.api.getPermission(h.repo, 'tria')).toBe('triage');
        expect(await h.api.getPermission(h.repo, 'octo')).toBe('admin');
        expect(await h.api.getPermission(h.repo, 'stranger')).toBe('none');
        expectNoViolations();
      });

      it('isTeamMember: members of a seeded team only, logins and slugs compared case-insensitively', async () => {
        h.seed.team('octo', 'reviewers', ['carol']);
        expect(await h.api.isTeamMember('octo', 'reviewers', 'Carol')).toBe(true);
        expect(await h.api.isTeamMember('octo', 'Reviewers', 'carol')).toBe(true);
        expect(await h.api.isTeamMember('octo', 'reviewers', 'alice')).toBe(false);
        expect(await h.api.isTeamMember('octo', 'nobody', 'carol')).toBe(false);
        expectNoViolations();
      });

      it('getFileText reads a branch, a sha or a full ref; absent files, folders and refs are undefined', async () => {
        expect(await h.api.getFileText(h.repo, 'README.md', 'main')).toBe(CONTRACT_README);
        expect(await h.api.getFileText(h.repo, 'README.md', 'refs/heads/main')).toBe(CONTRACT_README);
        expect(await h.api.getFileText(h.repo, 'README.md', 'feature')).toBe(FIXED_README);
        expect(await h.api.getFileText(h.repo, '.github/agent-mux.yml', mainSha)).toBe(CONFIG);
        expect(await h.api.getFileText(h.repo, 'docs/new.md', featureSha)).toBe('one\ntwo\nthree\n');
        expect(await h.api.getFileText(h.repo, 'docs/new.md', 'main')).toBeUndefined();
        expect(await h.api.getFileText(h.repo, 'docs', 'main')).toBeUndefined();
        expect(await h.api.getFileText(h.repo, 'README.md', 'no-such-branch')).toBeUndefined();
        expectNoViolations();
      });

      it('getBranchSha reads the branch from git; an unknown branch is undefined', async () => {
        expect(await h.api.getBranchSha(h.repo, 'main')).toBe(mainSha);
        expect(await h.api.getBranchSha(h.repo, 'feature')).toBe(featureSha);
        expect(await h.api.getBranchSha(h.repo, 'nope')).toBeUndefined();
        expectNoViolations();
      });
    });

    describe('comments and reactions', () => {
      it('createComment posts as the bot with ids past every seeded id, on issues and pulls; unknown is 404', async () => {
        h.seed.issue(3, 'an issue', 'alice');
        h.seed.pull({ number: 4, title: 'a pull', user: 'alice', headRef: 'feature' });
        const seeded = h.seed.comment(3, 'hi', 'alice');
        const first = await h.api.createComment(h.repo, 3, 'one');
        const second = await h.api.createComment(h.repo, 4, 'two');
        expect(first.id).toBeGreaterThan(seeded);
        expect(second.id).toBeGreaterThan(first.id);
        expect(first).toMatchObject({
          body: 'one',
          user: { login: h.selfLogin, type: 'Bot' },
          htmlUrl: `https://github.com/octo/demo/issues/3#issuecomment-${first.id}`,
        });
        expect(first.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        expect(first.updatedAt).toBe(first.createdAt);
        expect(await statusOf(h.api.createComment(h.repo, 99, 'x'))).toBe(404);
      });

      it('updateComment and getComment: the body and update time change; unknown ids are 404', async () => {
        let now = new Date('2026-01-01T10:00:00Z');
        h.setNow(() => now);
        h.seed.issue(3, 'an issue', 'alice');
        const seeded = h.seed.comment(3, '@agent go', 'alice');
        expect(await h.api.getComment(h.repo, seeded)).toMatchObject({
          id: seeded,
          body: '@agent go',
          user: { login: 'alice', type: 'User' },
          createdAt: '2026-01-01T10:00:00Z',
        });
        const { id } = await h.api.createComment(h.repo, 3, 'one');
        now = new Date('2026-01-01T11:00:00Z');
        await h.api.updateComment(h.repo, id, 'edited');
        expect(await h.api.getComment(h.repo, id)).toMatchObject({
          body: 'edited',
          createdAt: '2026-01-01T10:00:00Z',
          updatedAt: '2026-01-01T11:00:00Z',
        });
        expect(await statusOf(h.api.updateComment(h.repo, 999_999, 'x'))).toBe(404);
        expect(await statusOf(h.api.getComment(h.repo, 999_999))).toBe(404);
      });

      it('listComments: one issue’s comments, since by update time, notModified for the same etag until a change', async () => {
        let now = new Date('2026-01-01T10:00:00Z');
        h.setNow(() => now);
        h.seed.issue(3, 'an issue', 'alice');
        h.seed.issue(5, 'another', 'alice');
        const old = await h.api.createComment(h.repo, 3, 'old');
        await h.api.createComment(h.repo, 5, 'elsewhere');
        now = new Date('2026-01-01T11:00:00Z');
        await h.api.createComment(h.repo, 3, 'new');

        const all = await h.api.listComments(h.repo, 3);
        expect(all.notModified).toBe(false);
        expect(all.data.map((c) => c.body)).toEqual(['old', 'new']);
        const since = await h.api.listComments(h.repo, 3, { since: '2026-01-01T10:30:00Z' });
        expect(since.data.map((c) => c.body)).toEqual(['new']);
        expect(since.etag).toBeDefined();

        const again = await h.api.listComments(h.repo, 3, { since: '2026-01-01T10:30:00Z', etag: since.etag });
        expect(again).toEqual({ notModified: true, etag: since.etag, data: [] });
        await h.api.updateComment(h.repo, old.id, 'old, edited');
        const changed = await h.api.listComments(h.repo, 3, { since: '2026-01-01T10:30:00Z', etag: since.etag });
        expect(changed.notModified).toBe(false);
        expect(changed.data.map((c) => c.body)).toEqual(['old, edited', 'new']);
        expect(await statusOf(h.api.listComments(h.repo, 99))).toBe(404);
      });

      it('addReaction: on a comment, a review comment or an issue, once per content; unknown targets are 404', async () => {
        h.seed.issue(3, 'an issue', 'alice');
        h.seed.pull({ number: 4, title: 'a pull', user: 'alice', headRef: 'feature' });
        const comment = h.seed.comment(3, '@agent go', 'alice');
        const reviewComment = h.seed.reviewComment(4, { body: '@agent go', user: 'alice' });
        await h.api.addReaction(h.repo, { kind: 'issue_comment', commentId: comment }, 'eyes');
        await h.api.addReaction(h.repo, { kind: 'issue_comment', commentId: comment }, 'eyes');
        await h.api.addReaction(h.repo, { kind: 'issue_comment', commentId: comment }, 'rocket');
        await h.api.addReaction(h.repo, { kind: 'review_comment', commentId: reviewComment }, 'rocket');
        await h.api.addReaction(h.repo, { kind: 'issue', issueNumber: 3 }, '+1');
        expect(h.inspect.reactions()).toEqual([
          { kind: 'issue_comment', id: comment, content: 'eyes', login: h.selfLogin },
          { kind: 'issue_comment', id: comment, content: 'rocket', login: h.selfLogin },
          { kind: 'review_comment', id: reviewComment, content: 'rocket', login: h.selfLogin },
          { kind: 'issue', id: 3, content: '+1', login: h.selfLogin },
        ]);
        expectNoViolations();
        expect(await statusOf(h.api.addReaction(h.repo, { kind: 'issue_comment', commentId: 999_999 }, 'eyes'))).toBe(
          404,
        );
        expect(await statusOf(h.api.addReaction(h.repo, { kind: 'review_comment', commentId: 999_999 }, 'eyes'))).toBe(
          404,
        );
        expect(await statusOf(h.api.addReaction(h.repo, { kind: 'issue', issueNumber: 9 }, 'eyes'))).toBe(404);
      });
    });

    describe('check runs', () => {
      it('output accumulates like GitHub’s: fields replaced when given, annotations appended, a conclusion completes', async () => {
        const run = await h.api.createCheckRun(h.repo, {
          name: 'agent-mux / demo',
          headSha: mainSha,
          status: 'in_progress',
          externalId: 'run-1',
          output: { title: 'starting', summary: 'first' },
          actions: [{ label: 'Cancel', description: 'Stop the run', identifier: 'cancel' }],
        });
        expect(run.htmlUrl).toBe(`https://github.com/octo/demo/runs/${run.id}`);
        expect(h.inspect.checkRuns()).toEqual([
          {
            id: run.id,
            name: 'agent-mux / demo',
            headSha: mainSha,
            status: 'in_progress',
            conclusion: undefined,
            title: 'starting',
            summary: 'first',
            text: undefined,
            annotationPaths: [],
            actions: ['cancel'],
            completed: false,
            updates: 0,
          },
        ]);
        await h.api.updateCheckRun(h.repo, run.id, {
          output: { title: 'running', summary: 'second', text: 'log', annotations: [annotation('README.md')] },
        });
        await h.api.updateCheckRun(h.repo, run.id, { status: 'in_progress' });
        expect(await h.api.getCheckRun(h.repo, run.id)).toEqual({ status: 'in_progress', conclusion: null });
        await h.api.updateCheckRun(h.repo, run.id, {
          conclusion: 'success',
          actions: [],
          output: { title: 'done', summary: 'third', annotations: [annotation('b.md')] },
        });
        expect(await h.api.getCheckRun(h.repo, run.id)).toEqual({ status: 'completed', conclusion: 'success' });
        expect(h.inspect.checkRuns()).toEqual([
          expect.objectContaining({
            status: 'completed',
            conclusion: 'success',
            title: 'done',
            summary: 'third',
            text: 'log',
            annotationPaths: ['README.md', 'b.md'],
            actions: [],
            completed: true,
            updates: 3,
          }),
        ]);
        expectNoViolations();
      });

      it('a run created completed has its conclusion and a completion time', async () => {
        await h.api.createCheckRun(h.repo, {
          name: 'c',
          headSha: mainSha,
          status: 'completed',
          conclusion: 'neutral',
          completedAt: '2026-01-01T10:00:00Z',
          output: { title: 't', summary: 's' },
        });
        expect(h.inspect.checkRuns()).toEqual([
          expect.objectContaining({ status: 'completed', conclusion: 'neutral', completed: true }),
        ]);
        expectNoViolations();
      });

      it.each([
        ['a summary over 65,535 characters', { output: { title: 't', summary: 'x'.repeat(65536) } }],
        ['a text over 65,535 characters', { output: { title: 't', summary: 's', text: 'x'.repeat(65536) } }],
        [
          'more than 50 annotations',
          { output: { title: 't', summary: 's', annotations: Array.from({ length: 51 }, () => annotation('a')) } },
        ],
        [
          'more than 3 actions',
          {
            actions: Array.from({ length: 4 }, (_, i) => ({ label: `a${i}`, description: 'd', identifier: `a${i}` })),
          },
        ],
        ['completed without a conclusion', { status: 'completed' as const }],
      ])('refuses an update with %s (422), keeping the run as it was', async (_name, update) => {
        const run = await h.api.createCheckRun(h.repo, { name: 'c', headSha: mainSha, status: 'in_progress' });
        expect(await statusOf(h.api.updateCheckRun(h.repo, run.id, update))).toBe(422);
        expect(h.inspect.checkRuns()).toEqual([
          expect.objectContaining({ status: 'in_progress', annotationPaths: [], updates: 0 }),
        ]);
      });

      it('refuses to create a run completed without a conclusion (422)', async () => {
        expect(await statusOf(h.api.createCheckRun(h.repo, { name: 'c', headSha: mainSha, status: 'completed' }))).toBe(
          422,
        );
        expect(h.inspect.checkRuns()).toEqual([]);
      });

      it('an unknown check run is 404; so is a run on another repository', async () => {
        expect(await statusOf(h.api.updateCheckRun(h.repo, 1, { status: 'in_progress' }))).toBe(404);
        expect(
          await statusOf(
            h.api.createCheckRun({ owner: 'octo', repo: 'other' }, { name: 'c', headSha: mainSha, status: 'queued' }),
          ),
        ).toBe(404);
      });
    });

    describe('pull requests', () => {
      it('createPull needs both branches; then getPull and findOpenPull find it; a second one is 422', async () => {
        expect(await statusOf(h.api.createPull(h.repo, { title: 't', head: 'nope', base: 'main', body: '' }))).toBe(
          422,
        );
        expect(await statusOf(h.api.createPull(h.repo, { title: 't', head: 'feature', base: 'nope', body: '' }))).toBe(
          422,
        );
        h.seed.issue(4, 'an issue', 'alice');
        const pull = await h.api.createPull(h.repo, {
          title: 'Fix',
          head: 'feature',
          base: 'main',
          body: 'Closes #4.',
        });
        expect(pull).toEqual({
          number: 5,
          htmlUrl: 'https://github.com/octo/demo/pull/5',
          state: 'open',
          headSha: featureSha,
          headRef: 'feature',
          headRepoFullName: 'octo/demo',
          headCloneUrl: h.cloneUrl('octo'),
          baseRef: 'main',
          baseSha: mainSha,
          maintainerCanModify: false,
          fromFork: false,
        });
        expect(await h.api.getPull(h.repo, 5)).toEqual(pull);
        expect(await h.api.findOpenPull(h.repo, 'octo', 'feature')).toEqual(pull);
        expect(await h.api.findOpenPull(h.repo, 'OCTO', 'feature')).toEqual(pull);
        expect(await h.api.findOpenPull(h.repo, 'octo', 'main')).toBeUndefined();
        expect(await h.api.findOpenPull(h.repo, 'someone', 'feature')).toBeUndefined();
        expect(
          await statusOf(h.api.createPull(h.repo, { title: 't', head: 'octo:feature', base: 'main', body: '' })),
        ).toBe(422);
        expect(await statusOf(h.api.getPull(h.repo, 4))).toBe(404);
        expect(await statusOf(h.api.getPull(h.repo, 99))).toBe(404);
      });

      it('a created pull is a conversation: comments and reactions go on its number', async () => {
        const pull = await h.api.createPull(h.repo, {
          title: 'Fix',
          head: 'feature',
          base: 'main',
          body: '',
          draft: true,
        });
        await h.api.createComment(h.repo, pull.number, 'hello');
        await h.api.addReaction(h.repo, { kind: 'issue', issueNumber: pull.number }, 'rocket');
        expect((await h.api.listComments(h.repo, pull.number)).data.map((c) => c.body)).toEqual(['hello']);
        expect(h.inspect.reactions()).toEqual([
          { kind: 'issue', id: pull.number, content: 'rocket', login: h.selfLogin },
        ]);
        expectNoViolations();
      });

      it('a seeded same-repository pull follows its branch', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature', maintainerCanModify: true });
        expect(await h.api.getPull(h.repo, 7)).toEqual({
          number: 7,
          htmlUrl: 'https://github.com/octo/demo/pull/7',
          state: 'open',
          headSha: featureSha,
          headRef: 'feature',
          headRepoFullName: 'octo/demo',
          headCloneUrl: h.cloneUrl('octo'),
          baseRef: 'main',
          baseSha: mainSha,
          maintainerCanModify: true,
          fromFork: false,
        });
        expectNoViolations();
      });

      it('a pull from a fork keeps its own head; a deleted fork has no head repository', async () => {
        // GitHub keeps a fork's head in the base repository too (refs/pull/N/head).
        const forkSha = featureSha;
        h.seed.pull({ number: 7, title: 'p', user: 'eve', headRef: 'patch', fork: 'eve', headSha: forkSha });
        h.seed.pull({ number: 8, title: 'q', user: 'eve', headRef: 'gone', fork: null, headSha: forkSha });
        expect(await h.api.getPull(h.repo, 7)).toEqual({
          number: 7,
          htmlUrl: 'https://github.com/octo/demo/pull/7',
          state: 'open',
          headSha: forkSha,
          headRef: 'patch',
          headRepoFullName: 'eve/demo',
          headCloneUrl: h.cloneUrl('eve'),
          baseRef: 'main',
          baseSha: mainSha,
          maintainerCanModify: false,
          fromFork: true,
        });
        expect(await h.api.getPull(h.repo, 8)).toMatchObject({
          headRepoFullName: undefined,
          headCloneUrl: undefined,
          fromFork: true,
        });
        expect(await h.api.findOpenPull(h.repo, 'eve', 'patch')).toMatchObject({ number: 7 });
        expect(await h.api.findOpenPull(h.repo, 'octo', 'patch')).toBeUndefined();
        expectNoViolations();
      });

      it('requestReviewers: collaborators and the owner’s teams only, never the author; requests accumulate', async () => {
        h.seed.role('alice', 'write');
        h.seed.role('bob', 'maintain');
        h.seed.role('dave', 'read');
        h.seed.team('octo', 'core', ['carol']);
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        await h.api.requestReviewers(h.repo, 7, { users: ['bob'], teams: ['core'] });
        await h.api.requestReviewers(h.repo, 7, { users: ['bob', 'dave'], teams: [] });
        expect(h.inspect.reviewRequests(7)).toEqual({ users: ['bob', 'dave'], teams: ['core'] });
        expectNoViolations();
        expect(await statusOf(h.api.requestReviewers(h.repo, 7, { users: ['alice'], teams: [] }))).toBe(422);
        expect(await statusOf(h.api.requestReviewers(h.repo, 7, { users: ['stranger'], teams: [] }))).toBe(422);
        expect(await statusOf(h.api.requestReviewers(h.repo, 7, { users: [], teams: ['ghosts'] }))).toBe(422);
        expect(await statusOf(h.api.requestReviewers(h.repo, 99, { users: ['bob'], teams: [] }))).toBe(404);
        expect(h.inspect.reviewRequests(7)).toEqual({ users: ['bob', 'dave'], teams: ['core'] });
      });

      it('requestReviewers: teams are the owner organisation’s (another’s is 422); an issue is no pull (404)', async () => {
        h.seed.role('bob', 'write');
        h.seed.team('elsewhere', 'core', ['carol']);
        h.seed.issue(3, 'an issue', 'alice');
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        expect(await statusOf(h.api.requestReviewers(h.repo, 7, { users: [], teams: ['core'] }))).toBe(422);
        expect(await statusOf(h.api.requestReviewers(h.repo, 3, { users: ['bob'], teams: [] }))).toBe(404);
        expect(h.inspect.reviewRequests(7)).toEqual({ users: [], teams: [] });
        h.seed.team('octo', 'core', ['carol']);
        await h.api.requestReviewers(h.repo, 7, { users: [], teams: ['core'] });
        expect(h.inspect.reviewRequests(7)).toEqual({ users: [], teams: ['core'] });
        expectNoViolations();
      });

      it('createPull numbers a pull after every seeded issue and pull: one sequence for both', async () => {
        h.seed.issue(3, 'an issue', 'alice');
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'main' });
        const pull = await h.api.createPull(h.repo, { title: 'Fix', head: 'feature', base: 'main', body: '' });
        expect(pull).toMatchObject({ number: 8, htmlUrl: 'https://github.com/octo/demo/pull/8', state: 'open' });
        expect(await h.api.getPull(h.repo, 8)).toEqual(pull);
        expect(await h.api.getPull(h.repo, 7)).toMatchObject({ number: 7, headRef: 'main', headSha: mainSha });
        expectNoViolations();
      });

      it('findOpenPull: of several open pulls from one head, the newest', async () => {
        h.seed.pull({ number: 7, title: 'older', user: 'alice', headRef: 'feature' });
        h.seed.pull({ number: 8, title: 'newer', user: 'alice', headRef: 'feature' });
        h.seed.pull({ number: 9, title: 'other head', user: 'alice', headRef: 'main' });
        expect(await h.api.findOpenPull(h.repo, 'octo', 'feature')).toMatchObject({ number: 8, headSha: featureSha });
        expectNoViolations();
      });
    });

    describe('review threads', () => {
      it('listReviewThreads: each review comment opens a thread with its replies and 👎 reactions; resolveReviewThread marks it', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        await h.api.createReview(h.repo, 7, {
          commitId: featureSha,
          body: 'two findings',
          comments: [
            { path: 'docs/new.md', line: 2, body: 'first finding' },
            { path: 'docs/new.md', startLine: 1, line: 3, body: 'second finding' },
          ],
        });
        const [first, second] = await h.api.listReviewThreads(h.repo, 7);
        expect(first).toMatchObject({ isResolved: false, comments: [{ body: 'first finding', author: h.selfLogin }] });
        expect(second).toMatchObject({ isResolved: false, comments: [{ body: 'second finding', thumbsDownBy: [] }] });
        const firstId = first?.comments[0]?.id ?? 0;
        await h.api.replyToReviewComment(h.repo, 7, firstId, 'fixed?');
        h.seed.reviewComment(7, { body: 'unrelated', user: 'bob', path: 'docs/new.md', line: 1 });
        h.seed.reviewCommentReaction(second?.comments[0]?.id ?? 0, '-1', 'alice');
        await h.api.resolveReviewThread(h.repo, first?.id ?? '');
        const threads = await h.api.listReviewThreads(h.repo, 7);
        expect(threads.map((t) => [t.isResolved, t.comments.map((c) => c.body)])).toEqual([
          [true, ['first finding', 'fixed?']],
          [false, ['second finding']],
          [false, ['unrelated']],
        ]);
        expect(threads[0]?.resolvedBy).toBe(h.selfLogin);
        expect(threads[1]?.resolvedBy).toBeUndefined();
        expect(threads[1]?.comments[0]?.thumbsDownBy).toEqual(['alice']);
        expect(threads[2]?.comments[0]?.author).toBe('bob');
        expectNoViolations();
      });

      it('an unknown thread cannot be resolved; an unknown pull has no threads', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        await expect(
          h.api.resolveReviewThread(h.repo, Buffer.from('PullRequestReviewThread999').toString('base64')),
        ).rejects.toThrow(/Could not resolve to a node/);
        await expect(h.api.listReviewThreads(h.repo, 99)).rejects.toThrow();
      });
    });

    describe('reviews and review comments', () => {
      it('listReviews: one pull’s reviews, oldest first, notModified for the same etag until a review is added', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        h.seed.pull({ number: 8, title: 'q', user: 'alice', headRef: 'main' });
        const id = h.seed.review(7, { state: 'COMMENTED', body: 'hm', user: 'bob', commitId: featureSha });
        h.seed.review(8, { state: 'APPROVED', user: 'bob', commitId: mainSha });
        const first = await h.api.listReviews(h.repo, 7);
        expect(first.notModified).toBe(false);
        expect(first.data).toEqual([
          {
            id,
            state: 'COMMENTED',
            body: 'hm',
            commitId: featureSha,
            user: { login: 'bob', type: 'User' },
            submittedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          },
        ]);
        expect(await h.api.listReviews(h.repo, 7, { etag: first.etag })).toEqual({
          notModified: true,
          etag: first.etag,
          data: [],
        });
        h.seed.review(7, { state: 'APPROVED', user: 'carol', commitId: featureSha });
        const second = await h.api.listReviews(h.repo, 7, { etag: first.etag });
        expect(second.notModified).toBe(false);
        expect(second.data.map((r) => [r.state, r.user?.login])).toEqual([
          ['COMMENTED', 'bob'],
          ['APPROVED', 'carol'],
        ]);
        expectNoViolations();
        expect(await statusOf(h.api.listReviews(h.repo, 99))).toBe(404);
      });

      it('listReviewComments: the comments of one review; an unknown review is 404', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        const review = h.seed.review(7, { state: 'COMMENTED', body: 'see', user: 'bob', commitId: featureSha });
        const hunk = '@@ -1,3 +1,3 @@\n # Demo project\n \n-This projcet\n+This project';
        const id = h.seed.reviewComment(7, {
          body: 'typo',
          user: 'bob',
          path: 'README.md',
          line: 3,
          diffHunk: hunk,
          reviewId: review,
        });
        h.seed.reviewComment(7, { body: 'loose', user: 'bob' });
        expect(await h.api.listReviewComments(h.repo, 7, review)).toEqual([
          {
            id,
            body: 'typo',
            user: { login: 'bob', type: 'User' },
            path: 'README.md',
            lines: { start: 3, end: 3 },
            originalLines: { start: 3, end: 3 },
            side: 'RIGHT',
            startSide: undefined,
            diffHunk: hunk,
            htmlUrl: `https://github.com/octo/demo/pull/7#discussion_r${id}`,
            inReplyToId: undefined,
            createdAt: expect.any(String),
            updatedAt: expect.any(String),
          },
        ]);
        expectNoViolations();
        expect(await statusOf(h.api.listReviewComments(h.repo, 7, 999_999))).toBe(404);
        expect(await statusOf(h.api.listReviewComments(h.repo, 99, review))).toBe(404);
      });

      it('a review comment seeded without a place is on line 1 of README.md', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        const review = h.seed.review(7, { state: 'COMMENTED', body: 'see', user: 'bob', commitId: featureSha });
        h.seed.reviewComment(7, { body: 'here', user: 'bob', reviewId: review });
        expect(await h.api.listReviewComments(h.repo, 7, review)).toEqual([
          expect.objectContaining({ path: 'README.md', lines: { start: 1, end: 1 }, side: 'RIGHT' }),
        ]);
        expectNoViolations();
      });

      it('listPullComments: the pull request’s review comments and replies, since their creation, with an etag', async () => {
        let now = new Date('2026-01-01T10:00:00Z');
        h.setNow(() => now);
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        h.seed.pull({ number: 8, title: 'q', user: 'alice', headRef: 'main' });
        const root = h.seed.reviewComment(7, { body: '@agent fix this', user: 'alice', path: 'README.md', line: 3 });
        h.seed.reviewComment(8, { body: 'elsewhere', user: 'bob' });
        now = new Date('2026-01-01T11:00:00Z');
        const reply = await h.api.replyToReviewComment(h.repo, 7, root, '@agent and the Windows case');
        const all = await h.api.listPullComments(h.repo, 7);
        expect(all.data.map((c) => [c.body, c.inReplyToId])).toEqual([
          ['@agent fix this', undefined],
          ['@agent and the Windows case', root],
        ]);
        expect(all.data[1]).toMatchObject({ id: reply.id, createdAt: '2026-01-01T11:00:00Z' });
        const since = await h.api.listPullComments(h.repo, 7, { since: '2026-01-01T10:30:00Z' });
        expect(since.data.map((c) => c.id)).toEqual([reply.id]);
        const again = await h.api.listPullComments(h.repo, 7, { since: '2026-01-01T10:30:00Z', etag: since.etag });
        expect(again).toEqual({ notModified: true, etag: since.etag, data: [] });
        expect(await statusOf(h.api.listPullComments(h.repo, 99))).toBe(404);
        expectNoViolations();
      });

      it('replyToReviewComment: a reply in the thread, on the same place; a reply to a reply is 422', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        h.seed.pull({ number: 8, title: 'q', user: 'alice', headRef: 'main' });
        const hunk = '@@ -1,3 +1,3 @@\n # Demo project\n \n-This projcet\n+This project';
        const parent = h.seed.reviewComment(7, {
          body: '@agent fix',
          user: 'alice',
          path: 'README.md',
          line: 3,
          diffHunk: hunk,
        });
        const reply = await h.api.replyToReviewComment(h.repo, 7, parent, 'done');
        expect(reply).toEqual({
          id: reply.id,
          body: 'done',
          user: { login: h.selfLogin, type: 'Bot' },
          path: 'README.md',
          lines: { start: 3, end: 3 },
          originalLines: { start: 3, end: 3 },
          side: 'RIGHT',
          startSide: undefined,
          diffHunk: hunk,
          htmlUrl: `https://github.com/octo/demo/pull/7#discussion_r${reply.id}`,
          inReplyToId: parent,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        });
        expect(reply.id).toBeGreaterThan(parent);
        await h.api.addReaction(h.repo, { kind: 'review_comment', commentId: reply.id }, 'eyes');
        expectNoViolations();
        expect(await statusOf(h.api.replyToReviewComment(h.repo, 7, reply.id, 'again'))).toBe(422);
        expect(await statusOf(h.api.replyToReviewComment(h.repo, 8, parent, 'wrong pull'))).toBe(404);
        expect(await statusOf(h.api.replyToReviewComment(h.repo, 7, 424_242, 'x'))).toBe(404);
      });

      it('listPullFiles: the pull’s diff against its base, with patches', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        const files = await h.api.listPullFiles(h.repo, 7);
        expect(files.map((f) => [f.path, f.status])).toEqual([
          ['README.md', 'modified'],
          ['docs/new.md', 'added'],
        ]);
        expect(files[0]?.patch).toContain('+This project shows');
        expect(files[1]?.patch).toBe('@@ -0,0 +1,3 @@\n+one\n+two\n+three');
        expectNoViolations();
        expect(await statusOf(h.api.listPullFiles(h.repo, 99))).toBe(404);
      });

      it('compareCommits: ahead, behind, identical and the files changed from the merge base; an unknown commit is 404', async () => {
        expect(await h.api.compareCommits(h.repo, mainSha, featureSha)).toEqual({
          status: 'ahead',
          files: ['README.md', 'docs/new.md'],
        });
        expect(await h.api.compareCommits(h.repo, featureSha, mainSha)).toEqual({ status: 'behind', files: [] });
        expect(await h.api.compareCommits(h.repo, 'main', 'main')).toEqual({ status: 'identical', files: [] });
        expectNoViolations();
        expect(await statusOf(h.api.compareCommits(h.repo, mainSha, 'f'.repeat(40)))).toBe(404);
      });

      it('createReview: a COMMENTED review by the bot with its comments on the diff’s new side', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        const review = await h.api.createReview(h.repo, 7, {
          commitId: featureSha,
          body: 'Two notes.',
          comments: [
            { path: 'README.md', body: 'nice', line: 3 },
            { path: 'docs/new.md', body: 'these', line: 3, startLine: 1 },
          ],
        });
        expect(review.htmlUrl).toBe(`https://github.com/octo/demo/pull/7#pullrequestreview-${review.id}`);
        const reviews = await h.api.listReviews(h.repo, 7);
        expect(reviews.data).toEqual([
          expect.objectContaining({
            id: review.id,
            state: 'COMMENTED',
            body: 'Two notes.',
            commitId: featureSha,
            user: { login: h.selfLogin, type: 'Bot' },
          }),
        ]);
        const comments = await h.api.listReviewComments(h.repo, 7, review.id);
        expect(comments.map((c) => [c.path, c.body, c.lines, c.side, c.startSide])).toEqual([
          ['README.md', 'nice', { start: 3, end: 3 }, 'RIGHT', undefined],
          ['docs/new.md', 'these', { start: 1, end: 3 }, 'RIGHT', 'RIGHT'],
        ]);
        expect(comments[1]?.diffHunk).toContain('+three');
        expectNoViolations();
      });

      it.each([
        ['a line outside the diff', { path: 'README.md', body: 'x', line: 10 }],
        ['a file outside the diff', { path: 'docs/a.md', body: 'x', line: 1 }],
      ])('createReview refuses a comment on %s (422)', async (_name, comment) => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        const refused = h.api.createReview(h.repo, 7, { commitId: featureSha, body: 'b', comments: [comment] });
        expect(await statusOf(refused)).toBe(422);
        expect((await h.api.listReviews(h.repo, 7)).data).toEqual([]);
      });

      it('createReview refuses a commit that is not the pull’s head, and an empty body (422); unknown pulls are 404', async () => {
        h.seed.pull({ number: 7, title: 'p', user: 'alice', headRef: 'feature' });
        expect(
          await statusOf(h.api.createReview(h.repo, 7, { commitId: 'e'.repeat(40), body: 'b', comments: [] })),
        ).toBe(422);
        expect(await statusOf(h.api.createReview(h.repo, 7, { commitId: featureSha, body: '', comments: [] }))).toBe(
          422,
        );
        expect(await statusOf(h.api.createReview(h.repo, 99, { commitId: featureSha, body: 'b', comments: [] }))).toBe(
          404,
        );
        expect((await h.api.listReviews(h.repo, 7)).data).toEqual([]);
      });
    });

    describe('workflow runs', () => {
      it('getWorkflowRun and cancelWorkflowRun: unknown runs are undefined / 404, completed ones 409', async () => {
        const id = h.seed.workflowRun();
        expect(await h.api.getWorkflowRun(h.repo, id)).toEqual({ id, status: 'in_progress' });
        await h.api.cancelWorkflowRun(h.repo, id);
        expect(h.inspect.workflowRun(id)).toEqual({
          status: 'completed',
          conclusion: 'cancelled',
          cancelRequested: true,
        });
        expect(await h.api.getWorkflowRun(h.repo, id)).toEqual({ id, status: 'completed' });
        expectNoViolations();
        expect(await statusOf(h.api.cancelWorkflowRun(h.repo, id))).toBe(409);
        expect(await h.api.getWorkflowRun(h.repo, id + 1000)).toBeUndefined();
        expect(await statusOf(h.api.cancelWorkflowRun(h.repo, id + 1000))).toBe(404);
      });
    });

    describe('Actions cache entries', () => {
      it('listActionsCaches: the entries whose key starts with the prefix, on every branch, oldest first', async () => {
        const ids = [
          h.seed.actionsCache('spend/2026-03-14/run-1/1'),
          h.seed.actionsCache('spend/2026-03-15/run-1/1'),
          h.seed.actionsCache('spend/2026-03-14/run-2/1', 'refs/pull/7/merge'),
          h.seed.actionsCache('other/spend/2026-03-14/run-3/1'),
        ];
        const listed = await h.api.listActionsCaches(h.repo, 'spend/2026-03-14/');
        expect(listed.map((e) => [e.id, e.key, e.ref])).toEqual([
          [ids[0], 'spend/2026-03-14/run-1/1', 'refs/heads/main'],
          [ids[2], 'spend/2026-03-14/run-2/1', 'refs/pull/7/merge'],
        ]);
        expect(listed[0]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
        expect(await h.api.listActionsCaches(h.repo, 'none/')).toEqual([]);
        expectNoViolations();
      });

      it('listActionsCaches reads every page of 100', async () => {
        for (let i = 0; i < 230; i++) h.seed.actionsCache(`many/${String(i).padStart(3, '0')}`);
        const listed = await h.api.listActionsCaches(h.repo, 'many/');
        expect(listed).toHaveLength(230);
        expect(new Set(listed.map((e) => e.key)).size).toBe(230);
        expectNoViolations();
      });
    });
  });
}
