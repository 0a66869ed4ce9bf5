import { randomBytes } from 'node:crypto';
import { isRecord, namedExample } from './openapi-document.ts';
import { renderApp, renderUser, renderWorkflowRun } from './render.ts';
import { errorReply, notFound, numberParam, paginate, type RouteHandler, refOf, repoOf } from './route-kit.ts';

/** Operations that GitHub only answers for an app's JWT. */
export const jwtOperations = new Set([
  'apps/get-authenticated',
  'apps/get-repo-installation',
  'apps/create-installation-access-token',
  'apps/get-installation',
  'apps/list-installations',
]);

/** GitHub App and GitHub Actions routes, by operation id. */
export const appRoutes: Record<string, RouteHandler> = {
  'apps/get-authenticated': (context) => ({ status: 200, body: renderApp(context.render) }),

  'apps/get-repo-installation': (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const base = namedExample(context.render.document, 'installation');
    const app = context.state.app;
    return {
      status: 200,
      body: {
        ...(isRecord(base) ? base : {}),
        id: repo.installationId,
        account: renderUser(context.render, context.state.addUser({ login: repo.owner, type: 'User' })),
        app_id: app.id,
        app_slug: app.slug,
        target_id: repo.id,
        target_type: 'User',
        access_tokens_url: `${context.render.api}/app/installations/${repo.installationId}/access_tokens`,
        repositories_url: `${context.render.api}/installation/repositories`,
        html_url: `https://github.com/settings/installations/${repo.installationId}`,
      },
    };
  },

  'apps/create-installation-access-token': (context) => {
    const id = numberParam(context.params, 'installation_id');
    if (!context.state.hasInstallation(id)) return notFound();
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    context.state.tokens.set(token, { login: `${context.state.app.slug}[bot]`, type: 'Bot' });
    const expires = new Date(context.state.now().getTime() + 3600_000);
    return {
      status: 201,
      body: {
        token,
        expires_at: `${expires.toISOString().slice(0, 19)}Z`,
        permissions: { issues: 'write', contents: 'write', pull_requests: 'write', checks: 'write', metadata: 'read' },
        repository_selection: 'all',
      },
    };
  },

  'actions/list-workflow-runs-for-repo': (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const status = typeof context.query.status === 'string' ? context.query.status : undefined;
    const event = typeof context.query.event === 'string' ? context.query.event : undefined;
    const runs = context.state
      .workflowRuns(refOf(context))
      .filter((r) => status === undefined || r.status === status || r.conclusion === status)
      .filter((r) => event === undefined || r.event === event);
    const { page, headers } = paginate(context, runs);
    return {
      status: 200,
      body: { total_count: runs.length, workflow_runs: page.map((r) => renderWorkflowRun(context.render, r)) },
      headers,
    };
  },

  'actions/get-workflow-run': (context) => {
    const id = numberParam(context.params, 'run_id');
    const run = context.state.workflowRunRecord(refOf(context), id) && context.state.workflowRun(id);
    return run === undefined ? notFound() : { status: 200, body: renderWorkflowRun(context.render, run) };
  },

  'actions/get-actions-cache-list': (context) => {
    if (repoOf(context) === undefined) return notFound();
    const { key, ref, sort = 'last_accessed_at', direction = 'desc' } = context.query;
    const by = sort === 'size_in_bytes' ? 'sizeBytes' : 'createdAt'; // nothing here is accessed after saving
    const entries = context.state
      .actionsCaches(refOf(context), typeof key === 'string' ? key : '')
      .filter((e) => ref === undefined || e.ref === ref)
      .sort((a, b) => (a[by] < b[by] ? -1 : a[by] > b[by] ? 1 : a.id - b.id) * (direction === 'asc' ? 1 : -1));
    const { page, headers } = paginate(context, entries);
    return {
      status: 200,
      body: {
        total_count: entries.length,
        actions_caches: page.map((e) => ({
          id: e.id,
          ref: e.ref,
          key: e.key,
          version: e.version,
          last_accessed_at: e.createdAt,
          created_at: e.createdAt,
          size_in_bytes: e.sizeBytes,
        })),
      },
      headers,
    };
  },

  'actions/cancel-workflow-run': (context) => {
    const memory = context.state.memory(refOf(context));
    const run = context.state.workflowRunRecord(refOf(context), numberParam(context.params, 'run_id'));
    if (memory === undefined || run === undefined) return notFound();
    if (run.status === 'completed') return errorReply(409, 'Cannot cancel a workflow run that is completed.');
    memory.cancelWorkflowRun(run);
    return { status: 202, body: {} };
  },
};
