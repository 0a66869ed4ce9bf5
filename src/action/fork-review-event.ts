import { z } from 'zod';
import { isDecisionCommand } from '../github/approvals/answer-from.ts';
import { parseCommand } from '../github/trigger/parse-command.ts';

const forkReviewSchema = z.object({
  repository: z.object({ full_name: z.string() }),
  pull_request: z.object({
    number: z.number(),
    head: z.object({ repo: z.object({ full_name: z.string() }).nullable().optional() }),
  }),
  comment: z.object({ body: z.string().nullable().optional() }).optional(),
  review: z.object({ body: z.string().nullable().optional() }).optional(),
});

/** Review events that GitHub runs with a read-only token and no secrets when the pull request comes from a fork. */
const REVIEW_EVENTS = new Set(['pull_request_review_comment', 'pull_request_review']);

/**
 * What to say when a review comment (or review) on a pull request from a fork asks agent-mux for
 * something: GitHub gives such a workflow run a read-only `GITHUB_TOKEN` and no secrets, so
 * agent-mux could report nothing, push nothing and reach no model. Undefined for any other event,
 * and for a review text that does not mention the trigger phrase. Pure.
 */
export function forkReviewNotice(eventName: string, payload: unknown, phrase: string): string | undefined {
  if (!REVIEW_EVENTS.has(eventName)) return undefined;
  const parsed = forkReviewSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { repository, pull_request: pull } = parsed.data;
  const head = pull.head.repo?.full_name;
  if (head === repository.full_name) return undefined;
  const text = parsed.data.comment?.body ?? parsed.data.review?.body ?? '';
  const command = parseCommand(text, { phrase, agents: [] });
  if (command === undefined || isDecisionCommand(command)) return undefined;
  const where = eventName === 'pull_request_review' ? 'a review' : 'a review comment';
  return (
    `${phrase} in ${where} on pull request #${pull.number}, which comes from a fork (${head ?? 'a deleted repository'}), ` +
    'cannot run: GitHub gives workflows triggered by reviews of pull requests from forks a read-only GITHUB_TOKEN ' +
    'and no secrets, so agent-mux could not report, commit or reach the agent’s model. Nothing was started. ' +
    `Mention ${phrase} in the pull request’s conversation instead (an issue comment runs with this repository’s ` +
    'token and secrets), quoting the lines you mean.'
  );
}
