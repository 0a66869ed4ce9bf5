import type { Redactor } from '../core/redact/redactor.ts';
import type { GitHubApi } from './github-api.ts';

/**
 * The same API with every text it writes to GitHub (comments, review replies, check runs,
 * pull requests, reviewer requests) passed through the run's redactor: the last line of defence that keeps
 * secrets out of anything a run publishes, whatever produced the text.
 */
export function redactingApi(api: GitHubApi, redactor: Redactor): GitHubApi {
  const r = <T>(value: T): T => redactor.redact(value);
  return {
    ...api,
    createComment: (ref, issueNumber, body) => api.createComment(ref, issueNumber, r(body)),
    updateComment: (ref, commentId, body) => api.updateComment(ref, commentId, r(body)),
    createCheckRun: (ref, run) => api.createCheckRun(ref, r(run)),
    updateCheckRun: (ref, checkRunId, update) => api.updateCheckRun(ref, checkRunId, r(update)),
    createPull: (ref, pull) => api.createPull(ref, r(pull)),
    createReview: (ref, number, review) => api.createReview(ref, number, r(review)),
    replyToReviewComment: (ref, number, commentId, body) => api.replyToReviewComment(ref, number, commentId, r(body)),
  };
}
