import { createHash } from 'node:crypto';
import { type FakeRepo, fakeSha } from './fake-github-records.ts';
import { renderRepo, renderUser } from './render.ts';
import { notFound, type RouteContext, type RouteHandler, refOf, repoOf } from './route-kit.ts';

const permissionOfRole = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none',
};
const rolePermissions = {
  admin: { admin: true, maintain: true, push: true, triage: true, pull: true },
  maintain: { admin: false, maintain: true, push: true, triage: true, pull: true },
  write: { admin: false, maintain: false, push: true, triage: true, pull: true },
  triage: { admin: false, maintain: false, push: false, triage: true, pull: true },
  read: { admin: false, maintain: false, push: false, triage: false, pull: true },
  none: { admin: false, maintain: false, push: false, triage: false, pull: false },
};

/** The head sha of a branch: from git when backed, else from the seeded state. */
export async function branchSha(context: RouteContext, repo: FakeRepo, branch: string): Promise<string | undefined> {
  if (context.state.git !== undefined) return context.state.git.commitOf(`refs/heads/${branch}`);
  return repo.branches.get(branch);
}

function gitBlobSha(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\u0000`).update(bytes).digest('hex');
}

async function fileAt(
  context: RouteContext,
  repo: FakeRepo,
  gitRef: string,
  path: string,
): Promise<{ bytes: Uint8Array; sha: string } | undefined> {
  if (context.state.git !== undefined) return context.state.git.file(gitRef, path);
  const branch = gitRef.replace(/^refs\/heads\//, '');
  const candidates = [branch, ...[...repo.branches].filter(([, sha]) => sha === gitRef).map(([name]) => name)];
  for (const candidate of candidates) {
    const text = repo.files.get(`${candidate}\u0000${path}`);
    if (text !== undefined) {
      const bytes = new TextEncoder().encode(text);
      return { bytes, sha: gitBlobSha(bytes) };
    }
  }
  return undefined;
}

/** Repository, permission, team, contents and ref routes, by operation id. */
export const repoRoutes: Record<string, RouteHandler> = {
  'repos/get': (context) => {
    const repo = repoOf(context);
    return repo === undefined ? notFound() : { status: 200, body: renderRepo(context.render, repo) };
  },

  'repos/get-collaborator-permission-level': (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const username = String(context.params.username);
    const role = context.state.permissionOf(refOf(context), username);
    const user = context.state.user(username);
    if (role === undefined || user === undefined) return notFound(`${username} is not a user`);
    return {
      status: 200,
      body: {
        permission: permissionOfRole[role],
        role_name: role,
        user: { ...renderUser(context.render, user), permissions: rolePermissions[role], role_name: role },
      },
    };
  },

  'teams/get-membership-for-user-in-org': (context) => {
    const org = String(context.params.org);
    const slug = String(context.params.team_slug);
    const username = String(context.params.username);
    const membership = context.state.teamMembership(org, slug, username);
    if (membership === undefined) return notFound();
    return {
      status: 200,
      body: {
        url: `${context.render.api}/organizations/1/team/1/memberships/${username}`,
        role: membership.role,
        state: membership.state,
      },
    };
  },

  'repos/get-content': async (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const path = String(context.params.path);
    const gitRef = typeof context.query.ref === 'string' ? context.query.ref : repo.defaultBranch;
    const file = await fileAt(context, repo, gitRef, path);
    if (file === undefined) return notFound();
    const base64 = Buffer.from(file.bytes).toString('base64');
    const content = `${base64.replace(/.{60}/g, '$&\n')}\n`;
    const apiUrl = `${context.render.api}/repos/${repo.owner}/${repo.repo}/contents/${path}?ref=${encodeURIComponent(gitRef)}`;
    const htmlUrl = `https://github.com/${repo.owner}/${repo.repo}/blob/${gitRef}/${path}`;
    const gitUrl = `${context.render.api}/repos/${repo.owner}/${repo.repo}/git/blobs/${file.sha}`;
    return {
      status: 200,
      body: {
        type: 'file',
        encoding: 'base64',
        size: file.bytes.byteLength,
        name: path.split('/').at(-1),
        path,
        content,
        sha: file.sha,
        url: apiUrl,
        git_url: gitUrl,
        html_url: htmlUrl,
        download_url: `https://raw.githubusercontent.com/${repo.owner}/${repo.repo}/${gitRef}/${path}`,
        _links: { git: gitUrl, self: apiUrl, html: htmlUrl },
      },
    };
  },

  'git/get-ref': async (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const ref = String(context.params.ref);
    if (!ref.startsWith('heads/')) return notFound();
    const sha = await branchSha(context, repo, ref.slice('heads/'.length));
    if (sha === undefined) return notFound();
    const api = `${context.render.api}/repos/${repo.owner}/${repo.repo}/git`;
    return {
      status: 200,
      body: {
        ref: `refs/${ref}`,
        node_id: Buffer.from(`Ref:${ref}`).toString('base64'),
        url: `${api}/refs/${ref}`,
        object: { type: 'commit', sha, url: `${api}/commits/${sha}` },
      },
    };
  },
};

/** A made-up but stable base sha for a branch the state does not know. */
export function fallbackSha(repo: FakeRepo, branch: string): string {
  return fakeSha(`${repo.owner}/${repo.repo}@${branch}`);
}
