import { describe, expect, it } from 'vitest';
import { forkReviewNotice } from '../../src/action/fork-review-event.ts';
import { webhookPayload } from '../support/webhook-payload.ts';

/** GitHub's own sample payload of `event`, its pull request's head in `head` (a fork when not the base). */
function reviewEvent(event: string, body: string, head: string | null) {
  const payload = webhookPayload(event, event === 'pull_request_review' ? 'submitted' : 'created', {
    owner: 'acme',
    repo: 'app',
    body,
    login: 'alice',
  }) as { pull_request: { head: { repo: unknown } } };
  payload.pull_request.head.repo = head === null ? null : { full_name: head };
  return payload;
}

describe('forkReviewNotice (issue 33.7: a fork’s review comment runs read-only and without secrets)', () => {
  it('a review comment or review on a fork’s pull request that asks for a run: said, with the way out', () => {
    for (const event of ['pull_request_review_comment', 'pull_request_review']) {
      const notice = forkReviewNotice(event, reviewEvent(event, '@agent fix this line', 'mallory/app'), '@agent');
      expect(notice, event).toContain('comes from a fork (mallory/app)');
      expect(notice).toContain('read-only GITHUB_TOKEN and no secrets');
      expect(notice).toContain('Mention @agent in the pull request’s conversation instead');
    }
    expect(
      forkReviewNotice(
        'pull_request_review_comment',
        reviewEvent('pull_request_review_comment', '@agent cancel', null),
        '@agent',
      ),
    ).toContain('a deleted repository');
  });

  it('nothing to say for the same repository, another event, text without the phrase, or an approval answer', () => {
    const same = reviewEvent('pull_request_review_comment', '@agent fix this', 'acme/app');
    expect(forkReviewNotice('pull_request_review_comment', same, '@agent')).toBeUndefined();
    const fork = reviewEvent('pull_request_review_comment', 'Looks good to me', 'mallory/app');
    expect(forkReviewNotice('pull_request_review_comment', fork, '@agent')).toBeUndefined();
    const answer = reviewEvent('pull_request_review_comment', '/approve ap_123', 'mallory/app');
    expect(forkReviewNotice('pull_request_review_comment', answer, '@agent')).toBeUndefined();
    const asked = reviewEvent('pull_request_review_comment', '@agent fix this', 'mallory/app');
    expect(forkReviewNotice('issue_comment', asked, '@agent')).toBeUndefined();
    expect(forkReviewNotice('pull_request_review_comment', { nonsense: true }, '@agent')).toBeUndefined();
  });
});
