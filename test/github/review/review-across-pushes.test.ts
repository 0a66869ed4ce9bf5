import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubApi } from '../../../src/github/create-github-api.ts';
import { createOctokit } from '../../../src/github/create-octokit.ts';
import type { GitHubApi } from '../../../src/github/github-api.ts';
import { anchorText } from '../../../src/github/review/anchor-text.ts';
import { DiffAnchors } from '../../../src/github/review/diff-anchors.ts';
import { type Finding, findingSchema } from '../../../src/github/review/finding.ts';
import { type PublishedReview, publishReview } from '../../../src/github/review/publish-review.ts';
import { readPriorReview } from '../../../src/github/review/read-prior-review.ts';
import { type FakeGitHub, startFakeGitHub } from '../../support/fake-github/fake-github.ts';

// One pull request reviewed on three pushes, through createGitHubApi against the fake GitHub
// (REST checked against GitHub's OpenAPI description, GraphQL against its published schema).

const ref = { owner: 'acme', repo: 'widgets' };
const identity = ['-c', 'user.name=t', '-c', 'user.email=t@e'];
let dir: string;
let work: string;
let gh: FakeGitHub;
let api: GitHubApi;

async function git(...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd: work })).stdout.trim();
}

async function push(files: Record<string, string>, message: string): Promise<string> {
  for (const [path, text] of Object.entries(files)) await writeFile(join(work, path), text);
  await git('add', '-A');
  await git(...identity, 'commit', '-q', '-m', message);
  await git('push', '-q', 'origin', 'feature');
  return git('rev-parse', 'HEAD');
}

const AUTH = [
  'export function login(user, password) {',
  '  const query = "SELECT * FROM users WHERE name = \'" + user + "\'";',
  '  return db.run(query);',
  '}',
  '',
].join('\n');
const UTIL = ['export const retries = 0;', 'export function sleep(ms) {', '  while (Date.now() < ms) {}', '}', ''].join(
  '\n',
);

const finding = (input: Partial<Finding> & Pick<Finding, 'path' | 'line' | 'title'>): Finding =>
  findingSchema.parse({ severity: 'major', ...input });
const sqlInjection = finding({
  path: 'src/auth.ts',
  line: 2,
  severity: 'blocker',
  title: 'SQL injection in the login query',
  body: 'The user name goes into the SQL text unescaped.',
  suggestion: '  const query = sql`SELECT * FROM users WHERE name = ${user}`;',
});
const busyWait = finding({ path: 'src/util.ts', line: 3, title: 'Busy wait burns a core' });
const noRetries = finding({ path: 'src/util.ts', line: 1, severity: 'minor', title: 'Zero retries' });

async function review(headSha: string, reported: Finding[]): Promise<PublishedReview> {
  const contentAt = (path: string): string | undefined => {
    try {
      return fileAt(path, headSha);
    } catch {
      return undefined;
    }
  };
  const prior = await readPriorReview({
    api,
    repo: ref,
    pull: 7,
    selfLogins: ['agent-mux[bot]'],
    mayDismiss: async (login) => ['write', 'maintain', 'admin'].includes(await api.getPermission(ref, login)),
  });
  const files = await api.listPullFiles(ref, 7);
  return publishReview({
    api,
    repo: ref,
    pull: 7,
    headSha,
    prior,
    reported: reported.map((f) => ({
      finding: f,
      anchor: anchorText(contentAt(f.path) ?? '', f.startLine ?? f.line, f.line),
    })),
    anchors: DiffAnchors.fromFiles(files.map((f) => ({ filename: f.path, patch: f.patch, status: f.status }))),
    contentAt,
    threshold: 'minor',
    blockOn: 'major',
    checkRunUrl: 'https://github.com/acme/widgets/runs/1',
  });
}

function fileAt(path: string, sha: string): string {
  return execaSync('git', ['show', `${sha}:${path}`], { cwd: work, stripFinalNewline: false }).stdout;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-mux-review-pushes-'));
  const bare = join(dir, 'widgets.git');
  work = join(dir, 'work');
  await execa('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  await execa('git', ['clone', '-q', bare, work]);
  await git('checkout', '-q', '-b', 'main');
  await writeFile(join(work, 'README.md'), 'widgets\n');
  await git('add', '-A');
  await git(...identity, 'commit', '-q', '-m', 'first');
  await git('push', '-q', 'origin', 'main');
  await git('checkout', '-q', '-b', 'feature');
  await execa('mkdir', ['-p', join(work, 'src')]);
  gh = await startFakeGitHub({ git: { bareRepo: bare } });
  gh.state.addRepo(ref);
  gh.state.setPermission(ref, 'alice', 'write');
  gh.state.setPermission(ref, 'eve', 'read');
  api = createGitHubApi(createOctokit({ token: 'tok', baseUrl: gh.url, waitScale: 1 }));
});
afterAll(async () => {
  await gh?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a pull request reviewed on three pushes', () => {
  it('posts each finding once, resolves what a push fixed, and drops what a writer dismissed', async () => {
    // Push 1: three findings, all on the diff; one with a suggestion.
    const head1 = await push({ 'src/auth.ts': AUTH, 'src/util.ts': UTIL }, 'add auth and util');
    gh.state.addPull(ref, { number: 7, title: 'Auth', headRef: 'feature', user: 'eve' });
    const first = await review(head1, [sqlInjection, busyWait, noRetries]);
    const comments = gh.state.reviewComments(ref, 7);
    expect(comments.map((c) => [c.path, c.line])).toEqual([
      ['src/auth.ts', 2],
      ['src/util.ts', 3],
      ['src/util.ts', 1],
    ]);
    expect(comments[0]?.body).toContain('```suggestion\n  const query = sql`SELECT');
    expect(comments[0]?.body).toContain('🔴 **Blocker**: SQL injection in the login query');
    expect(gh.state.reviews(ref, 7)[0]?.body).toContain('3 new findings');
    expect(first.blocking.map((f) => f.title)).toEqual(['SQL injection in the login query', 'Busy wait burns a core']);

    // The pull request's author, a reader, answers "won't fix" and resolves nothing: it does not
    // count (it would turn a required check green); the agent reads it on the next review.
    gh.state.addReviewComment(ref, 7, { body: "won't fix", user: 'eve', inReplyToId: comments[2]?.id ?? 0 });
    const afterEve = await readPriorReview({
      api,
      repo: ref,
      pull: 7,
      selfLogins: ['agent-mux[bot]'],
      mayDismiss: async (login) => ['write', 'maintain', 'admin'].includes(await api.getPermission(ref, login)),
    });
    expect(afterEve.state.findings.map((f) => f.status)).toEqual(['open', 'open', 'open']);
    expect(afterEve.replies).toEqual([
      expect.objectContaining({ author: 'eve', text: "won't fix", title: 'Zero retries' }),
    ]);

    // Push 2: the injection is fixed; two lines above the busy wait move it to line 5.
    const head2 = await push(
      {
        'src/auth.ts': AUTH.replace(
          / {2}const query = .*\n/,
          '  const query = sql`SELECT * FROM users WHERE name = ${user}`;\n',
        ),
        'src/util.ts': `// Helpers.\n\n${UTIL}`,
      },
      'fix the injection',
    );
    gh.state.pushHead(ref, 7, head2);
    const reviewsBefore = gh.state.reviews(ref, 7).length;
    const second = await review(head2, [{ ...busyWait, line: 5 }]);
    expect(gh.state.reviews(ref, 7)).toHaveLength(reviewsBefore); // nothing new: no review
    expect(second.reconciliation.resolve.map((r) => r.prior.title)).toEqual(['SQL injection in the login query']);
    const threads = await api.listReviewThreads(ref, 7);
    const injection = threads.find((t) => t.comments[0]?.body.includes('SQL injection'));
    expect(injection).toMatchObject({ isResolved: true, resolvedBy: 'agent-mux[bot]' });
    expect(injection?.comments[1]?.body).toMatch(
      /^Resolved by agent-mux on [0-9a-f]{7}: the code it was about has changed\.$/,
    );
    expect(second.open.map((f) => [f.title, f.line])).toEqual([
      ['Busy wait burns a core', 5],
      ['Zero retries', 3],
    ]);
    expect(second.blocking.map((f) => f.title)).toEqual(['Busy wait burns a core']);

    // A writer answers the busy wait "won't fix": push 3 does not raise it again, nothing blocks.
    const busyComment = gh.state.reviewComments(ref, 7).find((c) => c.body.includes('Busy wait'));
    gh.state.addReviewComment(ref, 7, {
      body: "Won't fix: it's a test helper",
      user: 'alice',
      inReplyToId: busyComment?.id ?? 0,
    });
    const head3 = await push({ 'README.md': 'widgets, reviewed\n' }, 'docs');
    gh.state.pushHead(ref, 7, head3);
    const third = await review(head3, [
      { ...busyWait, line: 5 },
      { ...noRetries, line: 3 },
    ]);
    expect(third.reconciliation.suppressed.map((s) => s.prior.title)).toEqual(['Busy wait burns a core']);
    expect(third.reconciliation.repeated.map((s) => s.prior.title)).toEqual(['Zero retries']);
    expect(third.review).toBeUndefined();
    expect(third.blocking).toEqual([]);
    expect(gh.state.reviewComments(ref, 7).filter((c) => c.body.includes('Busy wait'))).toHaveLength(1);
    gh.assertNoViolations();
  });
});
