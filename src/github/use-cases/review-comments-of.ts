import type { GitHubApi, ReviewCommentInfo } from '../github-api.ts';
import { maxPromptReviewComments } from '../sanitize/untrusted-prompt.ts';
import type { TriggerEvent } from '../trigger/trigger-event.ts';

/**
 * The review comments a request came with, each with its place in the diff: the comment it was
 * written in (from the event itself: never re-fetched, so an edit changes nothing), or the comments
 * of the review whose body holds it (`GET …/reviews/{review_id}/comments`, the first 30; a failure is
 * logged and the run goes on without them). Empty for any other source.
 */
export async function reviewCommentsOf(
  api: Pick<GitHubApi, 'listReviewComments'>,
  event: TriggerEvent,
  log?: (line: string) => void,
): Promise<ReviewCommentInfo[]> {
  const source = event.source;
  if (source.kind === 'review_comment') return event.reviewComment === undefined ? [] : [event.reviewComment];
  if (source.kind !== 'review' || event.number === undefined) return [];
  try {
    const comments = await api.listReviewComments(event.repo, event.number, source.reviewId);
    return comments.slice(0, maxPromptReviewComments);
  } catch (error) {
    log?.(`could not list the review's comments: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}
