import { z } from 'zod';
import type { ActionsCacheInfo } from './github-api.ts';
import type { RepoMethods } from './github-api-groups.ts';
import {
  actionsCacheListResponse,
  contentResponse,
  membershipResponse,
  permissionResponse,
  refResponse,
  repoResponse,
} from './github-responses.ts';
import type { OctokitRequests } from './octokit-requests.ts';

/**
 * `createGitHubApi`'s repository methods: the repository, roles, teams, files, branches, workflow runs
 * and Actions cache entries.
 */
export function octokitRepoMethods({ call, maybe }: OctokitRequests): RepoMethods {
  return {
    async getRepo(ref) {
      return (await call('GET /repos/{owner}/{repo}', { ...ref }, repoResponse)).data;
    },

    async getPermission(ref, username) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
        { ...ref, username },
        permissionResponse,
      );
      return 'absent' in result ? 'none' : result.data;
    },

    async isTeamMember(org, teamSlug, username) {
      const result = await maybe(
        'GET /orgs/{org}/teams/{team_slug}/memberships/{username}',
        { org, team_slug: teamSlug, username },
        membershipResponse,
      );
      return !('absent' in result) && result.data.state === 'active';
    },

    async getFileText(ref, path, gitRef) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/contents/{path}',
        { ...ref, path, ref: gitRef },
        contentResponse,
      );
      if ('absent' in result) return undefined;
      const file = result.data;
      if (file.type !== 'file' || file.content === undefined) return undefined;
      return Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8');
    },

    async getBranchSha(ref, branch) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/git/ref/{ref}',
        { owner: ref.owner, repo: ref.repo, ref: `heads/${branch}` },
        refResponse,
      );
      return 'absent' in result ? undefined : result.data.object.sha;
    },

    async getWorkflowRun(ref, runId) {
      const result = await maybe(
        'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
        { ...ref, run_id: runId },
        z.object({ id: z.number(), status: z.string().nullish() }).loose(),
      );
      return 'absent' in result ? undefined : { id: result.data.id, status: result.data.status ?? 'unknown' };
    },

    async cancelWorkflowRun(ref, runId) {
      await call('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', { ...ref, run_id: runId }, z.unknown());
    },

    async listActionsCaches(ref, keyPrefix) {
      // Oldest first: an entry saved while the pages are read lands after them, so none is skipped.
      const byId = new Map<number, ActionsCacheInfo>();
      for (let page = 1; page <= 100; page++) {
        const { data } = await call(
          'GET /repos/{owner}/{repo}/actions/caches',
          { ...ref, key: keyPrefix, sort: 'created_at', direction: 'asc', per_page: 100, page },
          actionsCacheListResponse,
        );
        for (const entry of data.entries) byId.set(entry.id, entry);
        if (data.listed < 100) break;
      }
      return [...byId.values()];
    },
  };
}
