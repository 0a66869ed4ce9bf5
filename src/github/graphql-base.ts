import type { OctokitLike } from './github-api.ts';
import { GitHubApiError } from './github-api-error.ts';

/**
 * Where GraphQL is on this Octokit's host: on GitHub Enterprise Server the REST API is under
 * `/api/v3` and GraphQL at `/api/graphql`, so `POST /graphql` needs the base URL without `/v3` (as
 * `@octokit/graphql` does). Empty (the Octokit's own base URL) where there is nothing to change.
 */
export function graphqlBase(octokit: OctokitLike): { baseUrl?: string } {
  const base = (octokit.request as { endpoint?: { DEFAULTS?: { baseUrl?: unknown } } }).endpoint?.DEFAULTS?.baseUrl;
  if (typeof base !== 'string' || !/\/api\/v3\/?$/.test(base)) return {};
  return { baseUrl: base.replace(/\/api\/v3\/?$/, '/api') };
}

/** GraphQL answers a query it could not run with 200 and `errors`: that is a failure of `operation`. */
export function throwOnGraphqlErrors(operation: string, errors: readonly { message: string }[] | undefined): void {
  if (errors !== undefined && errors.length > 0) {
    throw new GitHubApiError(operation, 200, errors.map((e) => e.message).join('; '));
  }
}
