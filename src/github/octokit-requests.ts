import { z } from 'zod';
import type { Conditional, OctokitLike } from './github-api.ts';
import { GitHubApiError, statusOf } from './github-api-error.ts';

/** The requests every group of `createGitHubApi`'s methods makes, on one Octokit. */
export type OctokitRequests = ReturnType<typeof octokitRequests>;

/** The {@link OctokitRequests} on `octokit`. */
export function octokitRequests(octokit: OctokitLike) {
  /** A request whose answer must match `schema`; any failure is a `GitHubApiError` naming the route. */
  async function call<S extends z.ZodType>(
    route: string,
    params: Record<string, unknown>,
    schema: S,
  ): Promise<{ data: z.output<S>; status: number; etag: string | undefined }> {
    let response: Awaited<ReturnType<OctokitLike['request']>>;
    try {
      response = await octokit.request(route, params);
    } catch (error) {
      throw GitHubApiError.from(route, error);
    }
    const parsed = schema.safeParse(response.data);
    if (!parsed.success) {
      throw new GitHubApiError(route, response.status, `unexpected response: ${parsed.error.issues[0]?.message}`);
    }
    return { data: parsed.data, status: response.status, etag: header(response.headers, 'etag') };
  }

  /** A request that may answer 404 (absent) or 304 (not modified). */
  async function maybe<S extends z.ZodType>(
    route: string,
    params: Record<string, unknown>,
    schema: S,
    absentOn: readonly number[] = [404],
  ): Promise<{ data: z.output<S>; etag: string | undefined } | { absent: number }> {
    try {
      return await call(route, params, schema);
    } catch (error) {
      const status = GitHubApiError.isInstance(error) ? error.status : statusOf(error);
      if (status !== undefined && absentOn.includes(status)) return { absent: status };
      throw error;
    }
  }

  /** A list asked for with `if-none-match: etag`: not modified (and empty) when GitHub answers 304. */
  async function conditionalList<S extends z.ZodType>(
    route: string,
    params: Record<string, unknown>,
    schema: S,
    etag: string | undefined,
  ): Promise<Conditional<z.output<S>[]>> {
    const headers = etag ? { 'if-none-match': etag } : {};
    const result = await maybe(route, { ...params, headers }, z.array(schema), [304]);
    if ('absent' in result) return { notModified: true, etag, data: [] };
    return { notModified: false, etag: result.etag, data: result.data };
  }

  return { octokit, call, maybe, conditionalList };
}

function header(headers: Record<string, string | number | undefined>, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return value === undefined ? undefined : String(value);
}
