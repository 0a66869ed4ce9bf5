import type { CheckRunOutput, CreateCheckRun, UpdateCheckRun } from './github-api.ts';
import type { CheckRunMethods } from './github-api-groups.ts';
import { checkRunResponse, checkRunStateResponse } from './github-responses.ts';
import type { OctokitRequests } from './octokit-requests.ts';

/** `createGitHubApi`'s check-run methods, with GitHub's snake_case bodies. */
export function octokitCheckRunMethods({ call }: OctokitRequests): CheckRunMethods {
  return {
    async createCheckRun(ref, run) {
      const { data } = await call(
        'POST /repos/{owner}/{repo}/check-runs',
        { ...ref, ...checkRunBody(run) },
        checkRunResponse,
      );
      return { id: data.id, htmlUrl: data.html_url ?? '' };
    },

    async updateCheckRun(ref, checkRunId, update) {
      await call(
        'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}',
        { ...ref, check_run_id: checkRunId, ...checkRunBody(update) },
        checkRunResponse,
      );
    },

    async getCheckRun(ref, checkRunId) {
      return (
        await call(
          'GET /repos/{owner}/{repo}/check-runs/{check_run_id}',
          { ...ref, check_run_id: checkRunId },
          checkRunStateResponse,
        )
      ).data;
    },
  };
}

/** GitHub's snake_case body of a check-run create or update; absent fields are left out. */
function checkRunBody(run: CreateCheckRun | UpdateCheckRun): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if ('name' in run) {
    body.name = run.name;
    body.head_sha = run.headSha;
    if (run.startedAt) body.started_at = run.startedAt;
    if (run.externalId) body.external_id = run.externalId;
    if (run.detailsUrl) body.details_url = run.detailsUrl;
  }
  if (run.status) body.status = run.status;
  if ('conclusion' in run && run.conclusion) body.conclusion = run.conclusion;
  if ('completedAt' in run && run.completedAt) body.completed_at = run.completedAt;
  if (run.output) body.output = outputBody(run.output);
  if (run.actions) body.actions = run.actions;
  return body;
}

function outputBody(output: CheckRunOutput): Record<string, unknown> {
  return {
    title: output.title,
    summary: output.summary,
    ...(output.text === undefined ? {} : { text: output.text }),
    ...(output.annotations?.length
      ? {
          annotations: output.annotations.map((a) => ({
            path: a.path,
            start_line: a.startLine,
            end_line: a.endLine,
            annotation_level: a.level,
            message: a.message,
            ...(a.title ? { title: a.title } : {}),
          })),
        }
      : {}),
  };
}
