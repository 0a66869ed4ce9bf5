import { z } from 'zod';
import { reviewCommentResponse } from '../github-responses.ts';
import {
  basePayloadSchema as baseSchema,
  payloadCommon as common,
  numberSchema,
  parsePayload as parse,
} from './payload-schemas.ts';
import { PULL_REQUEST_ACTIONS, type PullRequestAction, type TriggerEvent } from './trigger-event.ts';

const bodySchema = z.string().nullish();

const issueSchema = z
  .object({ number: numberSchema, title: z.string(), body: bodySchema, pull_request: z.unknown().optional() })
  .loose();
const pullSchema = z
  .object({ number: numberSchema, title: z.string(), body: bodySchema, head: z.object({ sha: z.string() }).loose() })
  .loose();

/** A time GitHub gives (ISO 8601); absent or null in some payloads. */
const timeSchema = z.string().nullish();

const issueCommentSchema = baseSchema.extend({
  issue: issueSchema,
  comment: z.object({ id: numberSchema, body: bodySchema, created_at: timeSchema }).loose(),
});
/** A review comment's `created_at` (the comment itself is read by `reviewCommentResponse`, which drops it). */
const commentTimeSchema = z.object({ comment: z.object({ created_at: timeSchema }).loose() }).loose();
const reviewCommentSchema = baseSchema.extend({
  pull_request: pullSchema,
  /** With its path, lines, sides and diff hunk (the agent gets them; the answer goes into its thread). */
  comment: reviewCommentResponse,
});
const reviewSchema = baseSchema.extend({
  pull_request: pullSchema,
  review: z
    .object({
      id: numberSchema,
      body: bodySchema,
      state: z.string(),
      commit_id: z.string().nullish(),
      submitted_at: timeSchema,
    })
    .loose(),
});
const issuesSchema = baseSchema.extend({
  issue: issueSchema,
  label: z.object({ name: z.string() }).loose().nullish(),
  assignee: z.object({ login: z.string() }).loose().nullish(),
});
const pullRequestSchema = baseSchema.extend({
  pull_request: pullSchema.extend({ draft: z.boolean().nullish() }),
});
const dispatchSchema = baseSchema.extend({ inputs: z.record(z.string(), z.unknown()).nullish() });

const actionSchema = z.object({ action: z.string() }).loose();

/** The actions that can start something, per event; `null` for events that carry no action. */
const triggeringActions: Record<string, readonly string[] | null> = {
  issue_comment: ['created'],
  pull_request_review_comment: ['created'],
  pull_request_review: ['submitted'],
  issues: ['opened', 'assigned', 'labeled'],
  pull_request: PULL_REQUEST_ACTIONS,
  workflow_dispatch: null,
};

/**
 * Reduces a webhook (or `GITHUB_EVENT_PATH`) payload to a {@link TriggerEvent}, or undefined when this event or
 * action never starts anything (`issue_comment.edited`, `issues.closed`, `push`, …). Pure: nothing is fetched, so
 * the text is the one the event carried.
 *
 * @throws TriggerPayloadError when the payload of a triggering event and action lacks a field the trigger needs.
 */
export function readTriggerEvent(eventName: string, payload: unknown): TriggerEvent | undefined {
  if (!Object.hasOwn(triggeringActions, eventName)) return undefined;
  const actions = triggeringActions[eventName];
  let action = '';
  if (actions) {
    const parsed = actionSchema.safeParse(payload);
    if (!parsed.success || !actions.includes(parsed.data.action)) return undefined;
    action = parsed.data.action;
  }
  switch (eventName) {
    case 'issue_comment': {
      const p = parse(eventName, issueCommentSchema, payload);
      return {
        ...common(eventName, p),
        ...onIssue(p.issue),
        text: p.comment.body ?? '',
        source: { kind: 'issue_comment', commentId: p.comment.id },
        ...given(p.comment.created_at),
      };
    }
    case 'pull_request_review_comment': {
      const p = parse(eventName, reviewCommentSchema, payload);
      return {
        ...common(eventName, p),
        ...onPull(p.pull_request),
        text: p.comment.body,
        source: { kind: 'review_comment', commentId: p.comment.id },
        reviewComment: p.comment,
        ...given(commentTimeSchema.safeParse(payload).data?.comment.created_at),
      };
    }
    case 'pull_request_review': {
      const p = parse(eventName, reviewSchema, payload);
      return {
        ...common(eventName, p),
        ...onPull(p.pull_request),
        text: p.review.body ?? '',
        source: { kind: 'review', reviewId: p.review.id, state: p.review.state },
        ...given(p.review.submitted_at),
        ...(p.review.commit_id ? { reviewCommitSha: p.review.commit_id } : {}),
      };
    }
    case 'issues': {
      const p = parse(eventName, issuesSchema, payload);
      const issueAction = action as 'opened' | 'assigned' | 'labeled';
      const label = issueAction === 'labeled' ? p.label?.name : undefined;
      const assignee = issueAction === 'assigned' ? p.assignee?.login : undefined;
      return {
        ...common(eventName, p),
        ...onIssue(p.issue),
        text: p.issue.body ?? '',
        source: {
          kind: 'issue',
          action: issueAction,
          ...(label === undefined ? {} : { label }),
          ...(assignee === undefined ? {} : { assignee }),
        },
      };
    }
    case 'pull_request': {
      const p = parse(eventName, pullRequestSchema, payload);
      return {
        ...common(eventName, p),
        ...onPull(p.pull_request),
        // No text asks anything: the repository's config (`review.on`) decides.
        text: '',
        source: { kind: 'pull_request', action: action as PullRequestAction, draft: p.pull_request.draft === true },
      };
    }
    default: {
      const p = parse(eventName, dispatchSchema, payload);
      const prompt = p.inputs?.prompt;
      return {
        ...common(eventName, p),
        number: readIssueNumber(p.inputs?.['issue-number']),
        isPullRequest: false,
        text: typeof prompt === 'string' ? prompt : '',
        source: { kind: 'dispatch' },
        title: '',
        issueBody: '',
      };
    }
  }
}

type Fields = Pick<TriggerEvent, 'number' | 'isPullRequest' | 'title' | 'issueBody' | 'headSha'>;

/** What an event on an issue (or a pull request seen as an issue) says of it. */
function onIssue(issue: z.infer<typeof issueSchema>): Fields {
  return {
    number: issue.number,
    isPullRequest: issue.pull_request != null,
    title: issue.title,
    issueBody: issue.body ?? '',
  };
}

/** What an event on a pull request says of it. */
function onPull(pull: z.infer<typeof pullSchema>): Fields {
  return {
    number: pull.number,
    isPullRequest: true,
    title: pull.title,
    issueBody: pull.body ?? '',
    headSha: pull.head.sha,
  };
}

function given(time: string | null | undefined): Pick<TriggerEvent, 'givenAt'> {
  return time ? { givenAt: time } : {};
}

/** A dispatch input is a string (`'42'` or `'#42'`); a number is accepted too. Anything else means "no issue". */
function readIssueNumber(value: unknown): number | undefined {
  const text =
    typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().replace(/^#/, '') : '';
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
