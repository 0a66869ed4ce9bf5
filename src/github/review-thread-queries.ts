import { z } from 'zod';

/**
 * The GraphQL documents agent-mux sends about review threads, and the shapes of their answers.
 * Checked against GitHub's published schema (`@octokit/graphql-schema`) by the tests' fake GitHub.
 */
export const REVIEW_THREADS_QUERY = `query ($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          resolvedBy { login }
          comments(first: 50) {
            nodes {
              databaseId
              body
              author { login }
              reactions(content: THUMBS_DOWN, first: 20) { nodes { user { login } } }
            }
          }
        }
      }
    }
  }
}`;

export const RESOLVE_THREAD_MUTATION = `mutation ($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

const graphqlErrors = z.array(z.object({ message: z.string() }).loose()).optional();

const threadComment = z
  .object({
    databaseId: z.number().nullable(),
    body: z.string(),
    author: z.object({ login: z.string() }).loose().nullable(),
    reactions: z
      .object({ nodes: z.array(z.object({ user: z.object({ login: z.string() }).loose().nullable() }).loose()) })
      .loose(),
  })
  .loose();

export const reviewThreadsResponse = z
  .object({
    data: z
      .object({
        repository: z
          .object({
            pullRequest: z
              .object({
                reviewThreads: z
                  .object({
                    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }).loose(),
                    nodes: z.array(
                      z
                        .object({
                          id: z.string(),
                          isResolved: z.boolean(),
                          resolvedBy: z.object({ login: z.string() }).loose().nullable(),
                          comments: z.object({ nodes: z.array(threadComment) }).loose(),
                        })
                        .loose(),
                    ),
                  })
                  .loose(),
              })
              .loose()
              .nullable(),
          })
          .loose()
          .nullable(),
      })
      .loose()
      .nullable()
      .optional(),
    errors: graphqlErrors,
  })
  .loose();

export type ReviewThreadsResponse = z.output<typeof reviewThreadsResponse>;

export const resolveThreadResponse = z
  .object({
    data: z
      .object({
        resolveReviewThread: z
          .object({ thread: z.object({ id: z.string(), isResolved: z.boolean() }).loose() })
          .loose()
          .nullable(),
      })
      .loose()
      .nullable()
      .optional(),
    errors: graphqlErrors,
  })
  .loose();
