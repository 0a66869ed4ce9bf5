import { newSideRanges, parseDiffHunks } from '../../../src/github/git/diff-hunks.ts';
import { type PullFileEntry, pullFilesFromGit } from '../../../src/github/git/pull-files-from-git.ts';
import type { FakePull, FakeRepo } from './fake-github-records.ts';
import { renderReview } from './render.ts';
import { branchSha } from './repo-routes.ts';
import {
  notFound,
  numberParam,
  type RouteContext,
  type RouteHandler,
  refOf,
  repoOf,
  validationFailed,
} from './route-kit.ts';

/** The pull request's files as GitHub computes them (head against its merge base with the base); none without git backing. */
async function filesOf(context: RouteContext, repo: FakeRepo, pull: FakePull): Promise<PullFileEntry[]> {
  const git = context.state.git;
  if (git === undefined) return [];
  const head = pull.fromFork ? pull.headSha : ((await branchSha(context, repo, pull.headRef)) ?? pull.headSha);
  const base = await branchSha(context, repo, pull.baseRef);
  return base === undefined ? [] : pullFilesFromGit(git.bareRepo, base, head);
}

interface ReviewCommentInput {
  path: string;
  body: string;
  line?: number;
  side?: string;
  start_line?: number;
  start_side?: string;
  position?: number;
}

interface CreateReviewInput {
  commit_id?: string;
  body?: string;
  event?: 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';
  comments?: ReviewCommentInput[];
}

/** Pull request files and reviews with comments on the diff. */
export const pullReviewRoutes: Record<string, RouteHandler> = {
  'pulls/list-files': async (context) => {
    const repo = repoOf(context);
    const pull = context.state.pull(refOf(context), numberParam(context.params, 'pull_number'));
    if (repo === undefined || pull === undefined) return notFound();
    const perPage = Number(context.query.per_page ?? 30);
    const page = Number(context.query.page ?? 1);
    const files = (await filesOf(context, repo, pull)).slice((page - 1) * perPage, page * perPage);
    const html = `https://github.com/${repo.owner}/${repo.repo}`;
    const api = `${context.render.api}/repos/${repo.owner}/${repo.repo}`;
    return {
      status: 200,
      body: files.map((f) => ({
        sha: null,
        filename: f.filename,
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        changes: f.additions + f.deletions,
        blob_url: `${html}/blob/${pull.headSha}/${encodeURI(f.filename)}`,
        raw_url: `${html}/raw/${pull.headSha}/${encodeURI(f.filename)}`,
        contents_url: `${api}/contents/${encodeURI(f.filename)}?ref=${pull.headSha}`,
        ...(f.patch === undefined ? {} : { patch: f.patch }),
      })),
    };
  },

  /** Only comments by `line` (and `start_line`) on the new side are supported; each must lie in one hunk, as on GitHub. */
  'pulls/create-review': async (context) => {
    const repo = repoOf(context);
    const number = numberParam(context.params, 'pull_number');
    const pull = context.state.pull(refOf(context), number);
    if (repo === undefined || pull === undefined) return notFound();
    const input = (context.body ?? {}) as CreateReviewInput;
    if ((input.event === 'COMMENT' || input.event === 'REQUEST_CHANGES') && !input.body) {
      return validationFailed('Unprocessable Entity', [
        { resource: 'PullRequestReview', field: 'body', code: 'missing' },
      ]);
    }
    const head = pull.fromFork ? pull.headSha : ((await branchSha(context, repo, pull.headRef)) ?? pull.headSha);
    if (input.commit_id !== undefined && input.commit_id !== head) {
      return validationFailed('Unprocessable Entity', [
        { resource: 'PullRequestReview', code: 'custom', message: 'commit_id is not part of the pull request' },
      ]);
    }
    const files = await filesOf(context, repo, pull);
    for (const comment of input.comments ?? []) {
      if (comment.line === undefined || comment.position !== undefined || (comment.side ?? 'RIGHT') !== 'RIGHT') {
        return validationFailed('Unprocessable Entity', [
          {
            resource: 'PullRequestReview',
            code: 'custom',
            message: 'the fake supports only comments by line on the RIGHT side',
          },
        ]);
      }
      const start = comment.start_line ?? comment.line;
      if (start > comment.line || (comment.start_line !== undefined && comment.start_line === comment.line)) {
        return validationFailed('Unprocessable Entity', [
          { resource: 'PullRequestReview', code: 'custom', message: 'start_line must precede line' },
        ]);
      }
      const patch = files.find((f) => f.filename === comment.path)?.patch ?? '';
      const ranges = newSideRanges(parseDiffHunks(patch));
      if (!ranges.some(([first, last]) => first <= start && comment.line! <= last)) {
        return validationFailed('Unprocessable Entity', [
          {
            resource: 'PullRequestReview',
            code: 'custom',
            message: 'Pull request review thread line must be part of the diff',
          },
        ]);
      }
    }
    const state =
      input.event === undefined
        ? 'PENDING'
        : input.event === 'APPROVE'
          ? 'APPROVED'
          : input.event === 'REQUEST_CHANGES'
            ? 'CHANGES_REQUESTED'
            : 'COMMENTED';
    const review = context.state.addReview(refOf(context), number, {
      state,
      body: input.body ?? '',
      user: context.identity,
      commitId: head,
    });
    for (const comment of input.comments ?? []) {
      context.state.addReviewComment(refOf(context), number, {
        body: comment.body,
        user: context.identity,
        path: comment.path,
        line: comment.line,
        ...(comment.start_line === undefined ? {} : { startLine: comment.start_line }),
        side: 'RIGHT',
        reviewId: review.id,
        commitId: head,
        diffHunk: files.find((f) => f.filename === comment.path)?.patch ?? '',
      });
    }
    return { status: 200, body: renderReview(context.render, review) };
  },
};
