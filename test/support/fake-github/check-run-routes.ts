import type { FakeAnnotation, FakeCheckRun } from './fake-github-state.ts';
import { renderCheckRun } from './render.ts';
import {
  notFound,
  numberParam,
  type RouteContext,
  type RouteHandler,
  type RouteReply,
  repoOf,
  validationFailed,
} from './route-kit.ts';

/** GitHub's limits on check run output: characters per text field, annotations and actions per request. */
export const checkRunLimits = { textLength: 65535, annotationsPerRequest: 50, actions: 3 };

interface CheckRunInput {
  name?: string;
  head_sha?: string;
  status?: string;
  conclusion?: string;
  started_at?: string;
  completed_at?: string;
  external_id?: string;
  details_url?: string;
  output?: { title?: string; summary?: string; text?: string; annotations?: FakeAnnotation[] };
  actions?: FakeCheckRun['actions'];
}

/** The limits GitHub enforces beyond the schema (and the schema's, again, for clear messages). */
function checkLimits(input: CheckRunInput, current: FakeCheckRun | undefined): RouteReply | undefined {
  for (const field of ['summary', 'text'] as const) {
    const value = input.output?.[field];
    if (value !== undefined && [...value].length > checkRunLimits.textLength) {
      return validationFailed('Invalid request.', [
        {
          resource: 'CheckRun',
          field: `output.${field}`,
          code: 'custom',
          message: `${field} is too long (maximum is 65535 characters)`,
        },
      ]);
    }
  }
  if ((input.output?.annotations?.length ?? 0) > checkRunLimits.annotationsPerRequest) {
    return validationFailed('Invalid request.\n\nOnly 50 annotations are allowed per request.');
  }
  if ((input.actions?.length ?? 0) > checkRunLimits.actions) {
    return validationFailed('Invalid request.\n\nOnly 3 actions are allowed.');
  }
  const completing = input.status === 'completed' || input.completed_at !== undefined;
  if (completing && input.conclusion === undefined && current?.conclusion == null) {
    return validationFailed('Invalid request.\n\n"conclusion" wasn\'t supplied.');
  }
  return undefined;
}

function applyOutput(run: FakeCheckRun, output: CheckRunInput['output']): void {
  if (output === undefined) return;
  if (output.title !== undefined) run.output.title = output.title;
  if (output.summary !== undefined) run.output.summary = output.summary;
  if (output.text !== undefined) run.output.text = output.text;
  run.output.annotations.push(...(output.annotations ?? []));
}

function applyStatus(context: RouteContext, run: FakeCheckRun, input: CheckRunInput): void {
  if (input.status !== undefined) run.status = input.status;
  if (input.conclusion !== undefined) {
    run.conclusion = input.conclusion;
    run.status = 'completed';
  }
  if (input.started_at !== undefined) run.startedAt = input.started_at;
  if (input.completed_at !== undefined) run.completedAt = input.completed_at;
  if (run.status === 'completed') run.completedAt ??= context.state.timestamp();
}

/** Check run routes, by operation id. */
export const checkRunRoutes: Record<string, RouteHandler> = {
  'checks/create': (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const input = (context.body ?? {}) as CheckRunInput;
    const refused = checkLimits(input, undefined);
    if (refused !== undefined) return refused;
    const run = context.state.storeCheckRun({
      repoKey: `${repo.owner}/${repo.repo}`.toLowerCase(),
      name: String(input.name),
      headSha: String(input.head_sha),
      status: 'queued',
      conclusion: null,
      startedAt: context.state.timestamp(),
      completedAt: null,
      externalId: input.external_id ?? null,
      detailsUrl: input.details_url ?? null,
      output: { title: null, summary: null, text: null, annotations: [] },
      actions: input.actions ?? [],
      creator: context.identity,
      updates: 0,
    });
    applyOutput(run, input.output);
    applyStatus(context, run, input);
    return { status: 201, body: renderCheckRun(context.render, run) };
  },

  'checks/update': (context) => {
    const run = context.state.checkRun(numberParam(context.params, 'check_run_id'));
    const repo = repoOf(context);
    if (run === undefined || repo === undefined || run.repoKey !== `${repo.owner}/${repo.repo}`.toLowerCase()) {
      return notFound();
    }
    const input = (context.body ?? {}) as CheckRunInput;
    const refused = checkLimits(input, run);
    if (refused !== undefined) return refused;
    if (input.name !== undefined) run.name = input.name;
    if (input.external_id !== undefined) run.externalId = input.external_id;
    if (input.details_url !== undefined) run.detailsUrl = input.details_url;
    if (input.actions !== undefined) run.actions = input.actions;
    applyOutput(run, input.output);
    applyStatus(context, run, input);
    run.updates += 1;
    return { status: 200, body: renderCheckRun(context.render, run) };
  },

  'checks/get': (context) => {
    const run = context.state.checkRun(numberParam(context.params, 'check_run_id'));
    const repo = repoOf(context);
    if (run === undefined || repo === undefined || run.repoKey !== `${repo.owner}/${repo.repo}`.toLowerCase()) {
      return notFound();
    }
    return { status: 200, body: renderCheckRun(context.render, run) };
  },
};
