import { isPull, type ReactionTargetKind } from './fake-github-records.ts';
import type { FakeGitHubState } from './fake-github-state.ts';
import { renderComment, renderIssue, renderReaction, renderReview } from './render.ts';
import {
  notFound,
  numberParam,
  paginate,
  type RouteContext,
  type RouteHandler,
  type RouteReply,
  refOf,
  repoOf,
} from './route-kit.ts';

function bodyField(context: RouteContext, name: string): unknown {
  const body = context.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function commentInRepo(context: RouteContext): ReturnType<FakeGitHubState['commentRecord']> {
  return context.state.commentRecord(refOf(context), numberParam(context.params, 'comment_id'));
}

function react(context: RouteContext, kind: ReactionTargetKind, id: number): RouteReply {
  const memory = context.state.memory(refOf(context));
  if (memory === undefined) return notFound();
  const { login, type } = context.identity;
  const { reaction, created } = memory.react({ kind, id }, String(bodyField(context, 'content')), { login, type });
  const view = context.state.reactions.find((r) => r.id === reaction.id);
  if (view === undefined) return notFound();
  return { status: created ? 201 : 200, body: renderReaction(context.render, view) };
}

/** Issue, comment, reaction and review routes, by operation id. */
export const conversationRoutes: Record<string, RouteHandler> = {
  'issues/get': (context) => {
    const issue = context.state.issue(refOf(context), numberParam(context.params, 'issue_number'));
    return issue === undefined ? notFound() : { status: 200, body: renderIssue(context.render, issue) };
  },

  'issues/create-comment': (context) => {
    const number = numberParam(context.params, 'issue_number');
    if (repoOf(context) === undefined || context.state.issue(refOf(context), number) === undefined) return notFound();
    const comment = context.state.addComment(refOf(context), number, {
      body: String(bodyField(context, 'body')),
      user: context.identity,
    });
    const rendered = renderComment(context.render, comment);
    return { status: 201, body: rendered, headers: { location: String(rendered.url) } };
  },

  'issues/get-comment': (context) => {
    const comment = commentInRepo(context) && context.state.comment(numberParam(context.params, 'comment_id'));
    return comment === undefined ? notFound() : { status: 200, body: renderComment(context.render, comment) };
  },

  'issues/update-comment': (context) => {
    const comment = commentInRepo(context);
    if (comment === undefined) return notFound();
    comment.body = String(bodyField(context, 'body'));
    comment.updatedAt = context.state.timestamp();
    comment.lastEditedAt = comment.updatedAt;
    const view = context.state.comment(comment.id);
    return view === undefined ? notFound() : { status: 200, body: renderComment(context.render, view) };
  },

  'issues/list-comments': (context) => {
    const number = numberParam(context.params, 'issue_number');
    if (context.state.issue(refOf(context), number) === undefined) return notFound();
    const since = typeof context.query.since === 'string' ? Date.parse(context.query.since) : undefined;
    const comments = context.state
      .comments(refOf(context), number)
      .filter((c) => since === undefined || Date.parse(c.updatedAt) >= since);
    const { page, headers } = paginate(context, comments);
    return { status: 200, body: page.map((c) => renderComment(context.render, c)), headers };
  },

  'reactions/create-for-issue-comment': (context) => {
    const comment = commentInRepo(context);
    return comment === undefined ? notFound() : react(context, 'issue_comment', comment.id);
  },

  'reactions/create-for-pull-request-review-comment': (context) => {
    const comment = context.state.reviewComment(numberParam(context.params, 'comment_id'));
    const key = `${context.params.owner}/${context.params.repo}`.toLowerCase();
    return comment?.repoKey !== key ? notFound() : react(context, 'review_comment', comment.id);
  },

  'reactions/create-for-issue': (context) => {
    const issue = context.state.issue(refOf(context), numberParam(context.params, 'issue_number'));
    return issue === undefined ? notFound() : react(context, 'issue', issue.number);
  },

  'pulls/list-reviews': (context) => {
    const number = numberParam(context.params, 'pull_number');
    const pull = context.state.issue(refOf(context), number);
    if (pull === undefined || !isPull(pull)) return notFound();
    const { page, headers } = paginate(context, context.state.reviews(refOf(context), number));
    return { status: 200, body: page.map((r) => renderReview(context.render, r)), headers };
  },
};
