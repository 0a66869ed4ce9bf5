import { execa } from 'execa';
import { changedFiles, compareCommitsInGit } from '../../../src/github/git/compare-commits-in-git.ts';
import type { RouteContext, RouteHandler } from './route-kit.ts';
import { notFound, repoOf } from './route-kit.ts';

/** A commit as GitHub's `commit` schema has it, read from the bare repository. */
async function renderCommit(context: RouteContext, gitDir: string, owner: string, repo: string, sha: string) {
  const format = ['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x00');
  const { stdout } = await execa('git', ['show', '-s', `--format=${format}`, sha], { cwd: gitDir });
  const [, tree, parents, an, ae, ad, cn, ce, cd, message] = stdout.split('\0');
  const api = `${context.render.api}/repos/${owner}/${repo}`;
  const html = `https://github.com/${owner}/${repo}`;
  return {
    url: `${api}/commits/${sha}`,
    sha,
    node_id: Buffer.from(`Commit:${sha}`).toString('base64'),
    html_url: `${html}/commit/${sha}`,
    comments_url: `${api}/commits/${sha}/comments`,
    commit: {
      url: `${api}/git/commits/${sha}`,
      author: { name: an, email: ae, date: ad },
      committer: { name: cn, email: ce, date: cd },
      message: (message ?? '').trim(),
      comment_count: 0,
      tree: { sha: tree, url: `${api}/git/trees/${tree}` },
    },
    author: null,
    committer: null,
    parents: (parents ?? '')
      .split(' ')
      .filter((p) => p !== '')
      .map((p) => ({ sha: p, url: `${api}/commits/${p}`, html_url: `${html}/commit/${p}` })),
  };
}

async function commitsBetween(gitDir: string, from: string, to: string): Promise<string[]> {
  const { stdout } = await execa('git', ['rev-list', '--reverse', `${from}..${to}`], { cwd: gitDir });
  return stdout.split('\n').filter((line) => line !== '');
}

/** Comparing two commits: backed by git (a fake without it knows no commits). */
export const compareRoutes: Record<string, RouteHandler> = {
  'repos/compare-commits-with-basehead': async (context) => {
    const repo = repoOf(context);
    const git = context.state.git;
    const [base, head] = String(context.params.basehead).split('...');
    if (repo === undefined || git === undefined || !base || !head) return notFound();
    const [baseSha, headSha] = [await git.commitOf(base), await git.commitOf(head)];
    if (baseSha === undefined || headSha === undefined) return notFound();
    const gitDir = git.bareRepo;
    const comparison = await compareCommitsInGit(gitDir, baseSha, headSha);
    const { stdout: mergeBase } = await execa('git', ['merge-base', baseSha, headSha], { cwd: gitDir });
    const ahead = await commitsBetween(gitDir, baseSha, headSha);
    const behind = await commitsBetween(gitDir, headSha, baseSha);
    const render = (sha: string) => renderCommit(context, gitDir, repo.owner, repo.repo, sha);
    const html = `https://github.com/${repo.owner}/${repo.repo}`;
    const api = `${context.render.api}/repos/${repo.owner}/${repo.repo}`;
    const perPage = Number(context.query.per_page ?? 250);
    return {
      status: 200,
      body: {
        url: `${api}/compare/${base}...${head}`,
        html_url: `${html}/compare/${base}...${head}`,
        permalink_url: `${html}/compare/${baseSha}...${headSha}`,
        diff_url: `${html}/compare/${base}...${head}.diff`,
        patch_url: `${html}/compare/${base}...${head}.patch`,
        base_commit: await render(baseSha),
        merge_base_commit: await render(mergeBase.trim()),
        status: comparison.status,
        ahead_by: ahead.length,
        behind_by: behind.length,
        total_commits: ahead.length,
        commits: await Promise.all(ahead.slice(0, perPage).map(render)),
        files: await renderFiles(gitDir, mergeBase.trim(), headSha, html, api),
      },
    };
  },
};

/** The comparison's files as `diff-entry`s (a rename with its `previous_filename`). */
async function renderFiles(gitDir: string, from: string, to: string, html: string, api: string) {
  return (await changedFiles(gitDir, from, to)).map((f) => ({
    sha: null,
    filename: f.filename,
    status: f.status,
    additions: 0,
    deletions: 0,
    changes: 0,
    blob_url: `${html}/blob/${to}/${encodeURI(f.filename)}`,
    raw_url: `${html}/raw/${to}/${encodeURI(f.filename)}`,
    contents_url: `${api}/contents/${encodeURI(f.filename)}?ref=${to}`,
    ...(f.previousFilename === undefined ? {} : { previous_filename: f.previousFilename }),
  }));
}
