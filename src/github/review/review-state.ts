import { z } from 'zod';
import { SEVERITIES } from './finding.ts';

/**
 * What agent-mux remembers of a pull request's review between pushes, kept where conversations
 * are kept (the Actions cache, the app's store): every finding it posted, where it was anchored,
 * its thread on GitHub, and whether it is still open, was resolved by a later push, or dismissed by
 * a person.
 */
export const reviewedFindingSchema = z.object({
  /** Short stable id: the fingerprint's first characters, shown in the comment's hidden marker. */
  id: z.string().min(1).max(64),
  path: z.string().min(1),
  line: z.number().int().min(1),
  startLine: z.number().int().min(1).optional(),
  /** The normalized code the finding is about (`anchorText`). */
  anchor: z.string(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  status: z.enum(['open', 'resolved', 'dismissed']),
  /** Why it was resolved or dismissed, as said on GitHub. */
  closedBecause: z.string().optional(),
  /** The head commit it was first posted on, and the last head it still held on. */
  postedOn: z.string(),
  heldOn: z.string(),
  /** Where it is on GitHub: an inline review comment (and its thread), or only the review's body. */
  commentId: z.number().int().optional(),
  threadId: z.string().optional(),
});
export type ReviewedFinding = z.output<typeof reviewedFindingSchema>;

export const reviewStateSchema = z.object({
  version: z.literal(1),
  pull: z.number().int().min(1),
  /** The last head commit reviewed. */
  reviewedSha: z.string().optional(),
  findings: z.array(reviewedFindingSchema),
});
export type ReviewState = z.output<typeof reviewStateSchema>;

/** A pull request never reviewed yet. */
export function emptyReviewState(pull: number): ReviewState {
  return { version: 1, pull, findings: [] };
}
