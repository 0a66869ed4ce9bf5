import type { FakeRepo, FakeUser } from './fake-github-records.ts';
import type { FakeGitHubState } from './fake-github-state.ts';
import type { RenderContext } from './render.ts';

/** What a route handler gets: validated, coerced parameters and the caller's identity. */
export interface RouteContext {
  state: FakeGitHubState;
  render: RenderContext;
  /** Path parameters, coerced to the description's types. */
  params: Record<string, unknown>;
  /** Query parameters, coerced. */
  query: Record<string, unknown>;
  /** The parsed JSON body (undefined when none). */
  body: unknown;
  /** Who the token belongs to. */
  identity: FakeUser;
  /** The request URL (for pagination links). */
  url: URL;
}

/** What a route handler answers. */
export interface RouteReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A handler for one operation of the description. */
export type RouteHandler = (context: RouteContext) => RouteReply | Promise<RouteReply>;

const docs = 'https://docs.github.com/rest';

/** GitHub's 404. */
export function notFound(message = 'Not Found'): RouteReply {
  return { status: 404, body: { message, documentation_url: docs, status: '404' } };
}

/** GitHub's 422 `Validation Failed`, with optional `errors` entries. */
export function validationFailed(message: string, errors?: Record<string, unknown>[]): RouteReply {
  return { status: 422, body: { message, documentation_url: docs, status: '422', ...(errors ? { errors } : {}) } };
}

/** A plain GitHub error body for any status. */
export function errorReply(status: number, message: string): RouteReply {
  return { status, body: { message, documentation_url: docs, status: String(status) } };
}

/** The repository named by `{owner}/{repo}`, if the state has it. */
export function repoOf(context: RouteContext): FakeRepo | undefined {
  return context.state.repo({ owner: String(context.params.owner), repo: String(context.params.repo) });
}

/** `{owner, repo}` from the path parameters. */
export function refOf(context: RouteContext): { owner: string; repo: string } {
  return { owner: String(context.params.owner), repo: String(context.params.repo) };
}

/** A numeric path or query parameter. */
export function numberParam(values: Record<string, unknown>, name: string): number {
  return Number(values[name]);
}

/** Slices one page (`per_page` ≤ 100, default 30; `page` from 1) and builds GitHub's `link` header. */
export function paginate<T>(context: RouteContext, items: T[]): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(Math.max(Number(context.query.per_page ?? 30), 1), 100);
  const page = Math.max(Number(context.query.page ?? 1), 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (n: number, rel: string): string => {
    const url = new URL(context.url);
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(n));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
  return {
    page: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length > 0 ? { link: links.join(', ') } : {},
  };
}
