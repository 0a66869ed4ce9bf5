import type { CheckRunMethods } from '../github/github-api-groups.ts';
import { applyCheckRun, checkRunRefusal } from './check-run-rules.ts';
import { fail, type MemoryGitHubContext } from './memory-github-context.ts';

/** The in-memory GitHub's check-run methods: created by `selfLogin`, refused (422) as GitHub refuses them. */
export function memoryCheckRunMethods(ctx: MemoryGitHubContext): CheckRunMethods {
  const { state } = ctx;
  return {
    async createCheckRun(ref, run) {
      const operation = 'POST /repos/{owner}/{repo}/check-runs';
      ctx.checkRepo(operation, ref);
      const refused = checkRunRefusal(run, undefined);
      if (refused !== undefined) fail(operation, 422, refused);
      const stored = state.addCheckRun({
        name: run.name,
        headSha: run.headSha,
        creator: state.self,
        ...(run.startedAt === undefined ? {} : { startedAt: run.startedAt }),
        ...(run.externalId === undefined ? {} : { externalId: run.externalId }),
        ...(run.detailsUrl === undefined ? {} : { detailsUrl: run.detailsUrl }),
      });
      applyCheckRun(stored, run, state.timestamp());
      return { id: stored.id, htmlUrl: `${ctx.html}/runs/${stored.id}` };
    },

    async updateCheckRun(ref, checkRunId, update) {
      const operation = 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}';
      ctx.checkRepo(operation, ref);
      const run = state.checkRunsById.get(checkRunId) ?? fail(operation, 404, 'Not Found');
      const refused = checkRunRefusal(update, run);
      if (refused !== undefined) fail(operation, 422, refused);
      applyCheckRun(run, update, state.timestamp());
      run.updates += 1;
    },

    async getCheckRun(ref, checkRunId) {
      const operation = 'GET /repos/{owner}/{repo}/check-runs/{check_run_id}';
      ctx.checkRepo(operation, ref);
      const run = state.checkRunsById.get(checkRunId) ?? fail(operation, 404, 'Not Found');
      return { status: run.status, conclusion: run.conclusion ?? null };
    },
  };
}
