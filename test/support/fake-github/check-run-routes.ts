import type {
  CheckRunAction,
  CheckRunConclusion,
  CheckRunOutput,
  CheckRunStatus,
  CreateCheckRun,
  UpdateCheckRun,
} from '../../../src/github/github-api.ts';
import { applyCheckRun, checkRunRefusal } from '../../../src/simulate/check-run-rules.ts';
import type { MemoryCheckRun } from '../../../src/simulate/memory-github-state.ts';
import type { FakeAnnotation } from './fake-github-records.ts';
import { renderCheckRun } from './render.ts';
import {
  notFound,
  numberParam,
  type RouteContext,
  type RouteHandler,
  type RouteReply,
  refOf,
  validationFailed,
} from './route-kit.ts';

/** A check-run body as sent (already validated against the description, so its enums hold). */
interface CheckRunInput {
  name?: string;
  head_sha?: string;
  status?: CheckRunStatus;
  conclusion?: CheckRunConclusion;
  started_at?: string;
  completed_at?: string;
  external_id?: string;
  details_url?: string;
  output?: { title?: string; summary?: string; text?: string; annotations?: FakeAnnotation[] };
  actions?: CheckRunAction[];
}

/** The body's output in the port's terms; a title or summary left out keeps the stored one. */
function outputOf(input: CheckRunInput, run: MemoryCheckRun | undefined): CheckRunOutput | undefined {
  const output = input.output;
  if (output === undefined) return undefined;
  return {
    title: output.title ?? run?.output.title ?? '',
    summary: output.summary ?? run?.output.summary ?? '',
    ...(output.text === undefined ? {} : { text: output.text }),
    ...(output.annotations === undefined
      ? {}
      : {
          annotations: output.annotations.map((a) => ({
            path: a.path,
            startLine: a.start_line,
            endLine: a.end_line,
            level: a.annotation_level as 'notice' | 'warning' | 'failure',
            message: a.message,
            ...(a.title === undefined ? {} : { title: a.title }),
          })),
        }),
  };
}

/** The body as the port's update: the one set of check-run rules (`check-run-rules.ts`) applies to both fakes. */
function updateOf(input: CheckRunInput, run: MemoryCheckRun | undefined): UpdateCheckRun {
  const output = outputOf(input, run);
  return {
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.conclusion === undefined ? {} : { conclusion: input.conclusion }),
    ...(input.completed_at === undefined ? {} : { completedAt: input.completed_at }),
    ...(output === undefined ? {} : { output }),
    ...(input.actions === undefined ? {} : { actions: input.actions }),
  };
}

function refused(message: string): RouteReply {
  return validationFailed(`Invalid request.\n\n${message}`);
}

function reply(context: RouteContext, run: MemoryCheckRun, status: number): RouteReply {
  const view = context.state.checkRun(run.id);
  return view === undefined ? notFound() : { status, body: renderCheckRun(context.render, view) };
}

/** Check run routes, by operation id: the shared in-memory state holds the runs. */
export const checkRunRoutes: Record<string, RouteHandler> = {
  'checks/create': (context) => {
    const memory = context.state.memory(refOf(context));
    if (memory === undefined) return notFound();
    const input = (context.body ?? {}) as CheckRunInput;
    const create: CreateCheckRun = {
      ...updateOf(input, undefined),
      name: String(input.name),
      headSha: String(input.head_sha),
      status: input.status ?? 'queued',
    };
    const refusal = checkRunRefusal(create, undefined);
    if (refusal !== undefined) return refused(refusal);
    const run = memory.addCheckRun({
      name: create.name,
      headSha: create.headSha,
      creator: { login: context.identity.login, type: context.identity.type },
      ...(input.external_id === undefined ? {} : { externalId: input.external_id }),
      ...(input.details_url === undefined ? {} : { detailsUrl: input.details_url }),
      ...(input.started_at === undefined ? {} : { startedAt: input.started_at }),
    });
    applyCheckRun(run, create, memory.timestamp());
    return reply(context, run, 201);
  },

  'checks/update': (context) => {
    const memory = context.state.memory(refOf(context));
    const run = context.state.checkRunRecord(refOf(context), numberParam(context.params, 'check_run_id'));
    if (memory === undefined || run === undefined) return notFound();
    const input = (context.body ?? {}) as CheckRunInput;
    const update = updateOf(input, run);
    const refusal = checkRunRefusal(update, run);
    if (refusal !== undefined) return refused(refusal);
    if (input.name !== undefined) run.name = input.name;
    if (input.external_id !== undefined) run.externalId = input.external_id;
    if (input.details_url !== undefined) run.detailsUrl = input.details_url;
    if (input.started_at !== undefined) run.startedAt = input.started_at;
    applyCheckRun(run, update, memory.timestamp());
    run.updates += 1;
    return reply(context, run, 200);
  },

  'checks/get': (context) => {
    const run = context.state.checkRunRecord(refOf(context), numberParam(context.params, 'check_run_id'));
    return run === undefined ? notFound() : reply(context, run, 200);
  },
};
