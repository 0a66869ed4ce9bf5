import type { RepoMethods } from '../github/github-api-groups.ts';
import { fail, type MemoryGitHubContext } from './memory-github-context.ts';

/**
 * The in-memory GitHub's repository methods: the repository, roles, teams, files, branches, workflow
 * runs and Actions cache entries.
 */
export function memoryRepoMethods(ctx: MemoryGitHubContext): RepoMethods {
  const { options, state, git } = ctx;
  return {
    async getRepo(ref) {
      ctx.checkRepo('GET /repos/{owner}/{repo}', ref);
      return {
        fullName: ctx.fullName,
        defaultBranch: options.defaultBranch,
        private: false,
        cloneUrl: options.bareRepo,
        htmlUrl: ctx.html,
      };
    },

    async getPermission(ref, username) {
      ctx.checkRepo('GET /repos/{owner}/{repo}/collaborators/{username}/permission', ref);
      return state.roleOf(username);
    },

    async isTeamMember(org, teamSlug, username) {
      return state.teams.isActiveMember(org, teamSlug, username);
    },

    async getFileText(ref, path, gitRef) {
      ctx.checkRepo('GET /repos/{owner}/{repo}/contents/{path}', ref);
      const override = options.files?.[path];
      const isDefault = gitRef === options.defaultBranch || gitRef === `refs/heads/${options.defaultBranch}`;
      if (override !== undefined && isDefault) return override;
      return git.fileText(gitRef, path);
    },

    async getBranchSha(ref, branch) {
      ctx.checkRepo('GET /repos/{owner}/{repo}/git/ref/{ref}', ref);
      return git.branchSha(branch);
    },

    async getWorkflowRun(ref, runId) {
      ctx.checkRepo('GET /repos/{owner}/{repo}/actions/runs/{run_id}', ref);
      const run = state.workflowRuns.get(runId);
      return run === undefined ? undefined : { id: run.id, status: run.status };
    },

    async cancelWorkflowRun(ref, runId) {
      const operation = 'POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel';
      ctx.checkRepo(operation, ref);
      const run = state.workflowRuns.get(runId) ?? fail(operation, 404, 'Not Found');
      if (run.status === 'completed') fail(operation, 409, 'Cannot cancel a workflow run that is completed.');
      state.cancelWorkflowRun(run);
    },

    async listActionsCaches(ref, keyPrefix) {
      ctx.checkRepo('GET /repos/{owner}/{repo}/actions/caches', ref);
      return state
        .actionsCaches(keyPrefix)
        .map((e) => ({ id: e.id, key: e.key, ref: e.ref, createdAt: e.createdAt, sizeBytes: e.sizeBytes }));
    },
  };
}
