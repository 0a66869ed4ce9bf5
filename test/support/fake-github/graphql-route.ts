import { validate } from '@octokit/graphql-schema';
import { reviewThreadNodeId } from '../../../src/simulate/memory-review-threads.ts';
import type { FakeGitHubState } from './fake-github-state.ts';
import type { RouteReply } from './route-kit.ts';

/**
 * `POST /graphql` as far as agent-mux asks it. Every document is first checked against GitHub's
 * published GraphQL schema (`@octokit/graphql-schema`): one that does not validate is answered as
 * GitHub answers it (200 with `errors`) and recorded as a violation. Then:
 * - `node(id:) { … lastEditedAt }` of an issue comment (null until an edit, as GitHub records it);
 * - `repository(…) { pullRequest(number:) { reviewThreads … } }`: the threads of the in-memory state;
 * - `resolveReviewThread(input: { threadId })`.
 * Node ids are the fake's own (`base64("IssueComment<id>")`, `base64("PullRequestReviewThread<id>")`).
 */
export function graphqlReply(
  state: FakeGitHubState,
  body: unknown,
  login: string,
): { reply: RouteReply; unsupported?: string } {
  const request = typeof body === 'object' && body !== null ? (body as { query?: unknown; variables?: unknown }) : {};
  const query = typeof request.query === 'string' ? request.query : '';
  const variables =
    typeof request.variables === 'object' && request.variables !== null
      ? (request.variables as Record<string, unknown>)
      : {};
  const invalid = validate(query).map((error) => error.message);
  if (invalid.length > 0) {
    const message = `not valid against GitHub's GraphQL schema: ${invalid.join('; ')}`;
    return { reply: { status: 200, body: { errors: invalid.map((m) => ({ message: m })) } }, unsupported: message };
  }
  if (query.includes('resolveReviewThread')) return { reply: resolveThread(state, variables, login) };
  if (query.includes('reviewThreads')) return { reply: reviewThreads(state, variables) };
  if (/node\(id:\s*\$id\)/.test(query) && query.includes('lastEditedAt') && typeof variables.id === 'string') {
    return { reply: lastEditedAt(state, variables.id) };
  }
  const message = `the fake GitHub does not answer this query (${JSON.stringify(query.slice(0, 120))})`;
  return { reply: { status: 200, body: { errors: [{ message }] } }, unsupported: message };
}

function notFound(path: string[], id: unknown): RouteReply {
  return {
    status: 200,
    body: {
      data: { [path[0] ?? 'node']: null },
      errors: [
        { type: 'NOT_FOUND', path, message: `Could not resolve to a node with the global id of '${String(id)}'` },
      ],
    },
  };
}

function lastEditedAt(state: FakeGitHubState, nodeId: string): RouteReply {
  const decoded = Buffer.from(nodeId, 'base64').toString('utf8');
  const id = /^IssueComment(\d+)$/.exec(decoded)?.[1];
  const comment = id === undefined ? undefined : state.comment(Number(id));
  if (comment === undefined) return notFound(['node'], nodeId);
  return { status: 200, body: { data: { node: { lastEditedAt: comment.lastEditedAt } } } };
}

function reviewThreads(state: FakeGitHubState, variables: Record<string, unknown>): RouteReply {
  const ref = { owner: String(variables.owner), repo: String(variables.name) };
  const memory = state.memory(ref);
  const number = Number(variables.number);
  if (memory === undefined || memory.pull(number) === undefined) {
    return {
      status: 200,
      body: {
        data: { repository: memory === undefined ? null : { pullRequest: null } },
        errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a PullRequest with the number of ${number}.` }],
      },
    };
  }
  // One page: the fake's pull requests have fewer than 100 threads.
  const nodes = memory.reviewThreads(number).map((thread) => ({
    id: reviewThreadNodeId(thread.root.id),
    isResolved: thread.resolvedBy !== undefined,
    resolvedBy: thread.resolvedBy === undefined ? null : { login: thread.resolvedBy },
    comments: {
      nodes: thread.comments.slice(0, 50).map((comment) => ({
        databaseId: comment.id,
        body: comment.body,
        author: { login: comment.user.login },
        reactions: {
          nodes: memory.reactions
            .filter((r) => r.target.kind === 'review_comment' && r.target.id === comment.id && r.content === '-1')
            .slice(0, 20)
            .map((r) => ({ user: { login: r.user.login } })),
        },
      })),
    },
  }));
  const pageInfo = { hasNextPage: false, endCursor: null };
  return { status: 200, body: { data: { repository: { pullRequest: { reviewThreads: { pageInfo, nodes } } } } } };
}

function resolveThread(state: FakeGitHubState, variables: Record<string, unknown>, login: string): RouteReply {
  const threadId = String(variables.threadId);
  const rootId = Number(/^PullRequestReviewThread(\d+)$/.exec(Buffer.from(threadId, 'base64').toString('utf8'))?.[1]);
  for (const [, memory] of state.memories()) {
    const root = memory.reviewComments.get(rootId);
    if (root === undefined || root.inReplyToId !== undefined) continue;
    memory.resolvedThreads.set(root.id, login);
    return { status: 200, body: { data: { resolveReviewThread: { thread: { id: threadId, isResolved: true } } } } };
  }
  return notFound(['resolveReviewThread'], threadId);
}
