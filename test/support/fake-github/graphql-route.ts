import type { FakeGitHubState } from './fake-github-state.ts';
import type { RouteReply } from './route-kit.ts';

/**
 * `POST /graphql` as far as agent-mux asks it: `node(id:)` of an issue comment for its
 * `lastEditedAt` (null until an edit, as GitHub records it). Node ids are the fake's own
 * (`base64("IssueComment<id>")`, as its REST responses give them). Any other query is answered as
 * GitHub answers a query it cannot run (200 with `errors`) and recorded as a violation by the caller.
 */
export function graphqlReply(state: FakeGitHubState, body: unknown): { reply: RouteReply; unsupported?: string } {
  const request = typeof body === 'object' && body !== null ? (body as { query?: unknown; variables?: unknown }) : {};
  const query = typeof request.query === 'string' ? request.query : '';
  const variables =
    typeof request.variables === 'object' && request.variables !== null
      ? (request.variables as Record<string, unknown>)
      : {};
  if (!/node\(id:\s*\$id\)/.test(query) || !query.includes('lastEditedAt') || typeof variables.id !== 'string') {
    const message = `the fake GitHub answers only node(id: $id) { … lastEditedAt } (got ${JSON.stringify(query.slice(0, 120))})`;
    return { reply: { status: 200, body: { errors: [{ message }] } }, unsupported: message };
  }
  const decoded = Buffer.from(variables.id, 'base64').toString('utf8');
  const id = /^IssueComment(\d+)$/.exec(decoded)?.[1];
  const comment = id === undefined ? undefined : state.comment(Number(id));
  if (comment === undefined) {
    return {
      reply: {
        status: 200,
        body: {
          data: { node: null },
          errors: [
            {
              type: 'NOT_FOUND',
              path: ['node'],
              message: `Could not resolve to a node with the global id of '${variables.id}'`,
            },
          ],
        },
      },
    };
  }
  return { reply: { status: 200, body: { data: { node: { lastEditedAt: comment.lastEditedAt } } } } };
}
