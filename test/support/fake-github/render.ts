import type {
  FakeCheckRun,
  FakeComment,
  FakeIssue,
  FakePull,
  FakeReaction,
  FakeRepo,
  FakeReview,
  FakeUser,
  FakeWorkflowRun,
} from './fake-github-records.ts';
import { isPull } from './fake-github-records.ts';
import type { FakeGitHubState } from './fake-github-state.ts';
import { isRecord, namedExample, type OpenApiDocument } from './openapi-document.ts';

/** What the renderers need: the description (for examples), the state and the server's base URL. */
export interface RenderContext {
  document: OpenApiDocument;
  state: FakeGitHubState;
  /** The API base URL, e.g. `http://127.0.0.1:4567`. */
  api: string;
}

type Json = Record<string, unknown>;

function example(context: RenderContext, name: string): Json {
  const value = namedExample(context.document, name);
  if (!isRecord(value)) throw new Error(`example ${name} is not an object`);
  return value;
}

function nodeId(kind: string, id: number): string {
  return Buffer.from(`${kind}${id}`).toString('base64');
}

/** A `simple-user` object. */
export function renderUser(context: RenderContext, user: FakeUser): Json {
  const api = `${context.api}/users/${encodeURIComponent(user.login)}`;
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId('User', user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `https://github.com/${user.login.replace(/\[bot\]$/, '')}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: user.type,
    site_admin: false,
  };
}

function ownerOf(context: RenderContext, login: string): Json {
  return renderUser(context, context.state.addUser({ login, type: 'User' }));
}

/** Replaces `octocat/Hello-World`-style names in every string of an example object. */
function rewriteUrls(value: unknown, from: RegExp, to: string, api: string): unknown {
  if (typeof value === 'string') return value.replace(from, to).replace('https://api.github.com', api);
  if (Array.isArray(value)) return value.map((v) => rewriteUrls(v, from, to, api));
  if (isRecord(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteUrls(v, from, to, api)]));
  return value;
}

/** A `full-repository` object (also good as a `repository`). */
export function renderRepo(context: RenderContext, repo: FakeRepo): Json {
  const base = rewriteUrls(
    example(context, 'full-repository-default-response'),
    /octocat\/Hello-World/g,
    `${repo.owner}/${repo.repo}`,
    context.api,
  ) as Json;
  return {
    ...base,
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.repo,
    full_name: `${repo.owner}/${repo.repo}`,
    owner: ownerOf(context, repo.owner),
    private: repo.private,
    visibility: repo.private ? 'private' : 'public',
    fork: false,
    default_branch: repo.defaultBranch,
    language: null,
    html_url: `https://github.com/${repo.owner}/${repo.repo}`,
    clone_url: `https://github.com/${repo.owner}/${repo.repo}.git`,
    url: `${context.api}/repos/${repo.owner}/${repo.repo}`,
    organization: null,
    parent: undefined,
    source: undefined,
    template_repository: null,
  };
}

/** A `minimal-repository` object. */
export function renderMinimalRepo(context: RenderContext, repo: FakeRepo): Json {
  const base = rewriteUrls(
    example(context, 'minimal-repository'),
    /octocat\/Hello-World/g,
    `${repo.owner}/${repo.repo}`,
    context.api,
  ) as Json;
  const full = renderRepo(context, repo);
  return {
    ...base,
    ...Object.fromEntries(Object.entries(full).filter(([key]) => key in base)),
    template_repository: undefined,
    organization: undefined,
  };
}

/** An `issue-comment` object. */
export function renderComment(context: RenderContext, comment: FakeComment): Json {
  const [owner, repo] = comment.repoKey.split('/') as [string, string];
  const repoApi = `${context.api}/repos/${owner}/${repo}`;
  return {
    ...example(context, 'issue-comment'),
    id: comment.id,
    node_id: nodeId('IssueComment', comment.id),
    url: `${repoApi}/issues/comments/${comment.id}`,
    html_url: `https://github.com/${owner}/${repo}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${repoApi}/issues/${comment.issueNumber}`,
    body: comment.body,
    user: renderUser(context, comment.user),
    created_at: comment.createdAt,
    updated_at: comment.updatedAt,
    author_association: 'NONE',
    performed_via_github_app: null,
    reactions: undefined,
  };
}

/** A `reaction` object. */
export function renderReaction(context: RenderContext, reaction: FakeReaction): Json {
  return {
    id: reaction.id,
    node_id: nodeId('Reaction', reaction.id),
    user: renderUser(context, reaction.user),
    content: reaction.content,
    created_at: reaction.createdAt,
  };
}

/** A `check-run` object. */
export function renderCheckRun(context: RenderContext, run: FakeCheckRun): Json {
  const [owner, repo] = run.repoKey.split('/') as [string, string];
  const base = example(context, 'check-run');
  const url = `${context.api}/repos/${owner}/${repo}/check-runs/${run.id}`;
  return {
    ...base,
    id: run.id,
    node_id: nodeId('CheckRun', run.id),
    head_sha: run.headSha,
    external_id: run.externalId ?? '',
    url,
    html_url: `https://github.com/${owner}/${repo}/runs/${run.id}`,
    details_url: run.detailsUrl ?? `https://github.com/${owner}/${repo}/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotations.length,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.id + 1 },
    app: renderApp(context),
    pull_requests: [],
  };
}

/** An `integration` object for the fake's app. */
export function renderApp(context: RenderContext): Json {
  const app = context.state.app;
  return {
    ...example(context, 'integration'),
    id: app.id,
    slug: app.slug,
    node_id: nodeId('Integration', app.id),
    name: app.name,
    owner: ownerOf(context, app.owner),
    html_url: `https://github.com/apps/${app.slug}`,
  };
}

/** An `issue` object (a pull request's issue carries `pull_request`). */
export function renderIssue(context: RenderContext, issue: FakeIssue | FakePull): Json {
  const [owner, repo] = issue.repoKey.split('/') as [string, string];
  const repoApi = `${context.api}/repos/${owner}/${repo}`;
  const url = `${repoApi}/issues/${issue.number}`;
  const kind = isPull(issue) ? 'pull' : 'issues';
  const base = example(context, 'issue');
  return {
    ...base,
    id: issue.number + 100000,
    node_id: nodeId('Issue', issue.number),
    url,
    repository_url: repoApi,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `https://github.com/${owner}/${repo}/${kind}/${issue.number}`,
    number: issue.number,
    state: issue.state,
    title: issue.title,
    body: issue.body,
    user: renderUser(context, issue.user),
    labels: [],
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    comments: context.state.comments({ owner, repo }, issue.number).length,
    pull_request: isPull(issue)
      ? {
          url: `${repoApi}/pulls/${issue.number}`,
          html_url: `https://github.com/${owner}/${repo}/pull/${issue.number}`,
          diff_url: `https://github.com/${owner}/${repo}/pull/${issue.number}.diff`,
          patch_url: `https://github.com/${owner}/${repo}/pull/${issue.number}.patch`,
          merged_at: null,
        }
      : undefined,
    closed_at: null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_by: null,
    author_association: 'NONE',
    repository: undefined,
    pinned_comment: undefined,
  };
}

function renderBranch(
  context: RenderContext,
  repo: FakeRepo,
  pull: FakePull,
  side: 'head' | 'base',
  sha: string,
): Json {
  const isHead = side === 'head';
  const owner = isHead ? pull.headOwner : repo.owner;
  const ref = isHead ? pull.headRef : pull.baseRef;
  const repoObject =
    owner === undefined
      ? null
      : renderRepo(context, { ...repo, owner, id: isHead && pull.fromFork ? repo.id + 1 : repo.id });
  if (repoObject !== null && isHead && pull.fromFork) repoObject.fork = true;
  return {
    label: `${owner ?? 'unknown'}:${ref}`,
    ref,
    sha,
    user: ownerOf(context, owner ?? repo.owner),
    repo: repoObject,
  };
}

/** A `pull-request` object (or `pull-request-simple` with `simple`). */
export function renderPull(
  context: RenderContext,
  pull: FakePull,
  shas: { head: string; base: string },
  simple = false,
): Json {
  const [owner, name] = pull.repoKey.split('/') as [string, string];
  const repo = context.state.requireRepo({ owner, repo: name });
  const repoApi = `${context.api}/repos/${repo.owner}/${repo.repo}`;
  const url = `${repoApi}/pulls/${pull.number}`;
  const html = `https://github.com/${repo.owner}/${repo.repo}/pull/${pull.number}`;
  const base = example(context, simple ? 'pull-request-simple' : 'pull-request');
  const requested = pull.requestedReviewers.map((login) => renderUser(context, context.state.addUser(login)));
  const teams = pull.requestedTeams.map((slug, index) => renderTeam(context, repo.owner, slug, index + 1));
  const full: Json = simple
    ? {}
    : {
        merged: false,
        mergeable: null,
        rebaseable: null,
        mergeable_state: 'unknown',
        merged_by: null,
        comments: context.state.comments({ owner, repo: name }, pull.number).length,
        review_comments: 0,
        maintainer_can_modify: pull.maintainerCanModify,
      };
  return {
    ...base,
    url,
    id: pull.number + 200000,
    node_id: nodeId('PullRequest', pull.number),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${repoApi}/issues/${pull.number}`,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repoApi}/pulls/comments{/number}`,
    comments_url: `${repoApi}/issues/${pull.number}/comments`,
    statuses_url: `${repoApi}/statuses/${shas.head}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: renderUser(context, pull.user),
    body: pull.body,
    labels: [],
    milestone: null,
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: requested,
    requested_teams: teams,
    head: renderBranch(context, repo, pull, 'head', shas.head),
    base: renderBranch(context, repo, pull, 'base', shas.base),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: `${repoApi}/issues/${pull.number}` },
      comments: { href: `${repoApi}/issues/${pull.number}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${repoApi}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${repoApi}/statuses/${shas.head}` },
    },
    author_association: 'NONE',
    auto_merge: null,
    draft: pull.draft,
    ...full,
  };
}

/** A `team` object. */
export function renderTeam(context: RenderContext, org: string, slug: string, id: number): Json {
  const url = `${context.api}/orgs/${org}/teams/${slug}`;
  return {
    id,
    node_id: nodeId('Team', id),
    url,
    html_url: `https://github.com/orgs/${org}/teams/${slug}`,
    name: slug,
    slug,
    description: null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    permission: 'pull',
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    type: 'organization',
    parent: null,
  };
}

/** A `pull-request-review` object. */
export function renderReview(context: RenderContext, review: FakeReview): Json {
  const [owner, repo] = review.repoKey.split('/') as [string, string];
  const html = `https://github.com/${owner}/${repo}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
  const pullUrl = `${context.api}/repos/${owner}/${repo}/pulls/${review.pullNumber}`;
  return {
    id: review.id,
    node_id: nodeId('PullRequestReview', review.id),
    user: renderUser(context, review.user),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: pullUrl,
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    submitted_at: review.submittedAt,
    commit_id: review.commitId,
    author_association: 'NONE',
  };
}

/** A `workflow-run` object. */
export function renderWorkflowRun(context: RenderContext, run: FakeWorkflowRun): Json {
  const [owner, name] = run.repoKey.split('/') as [string, string];
  const repo = context.state.requireRepo({ owner, repo: name });
  const sample = (example(context, 'workflow-run-paginated').workflow_runs as Json[])[0] ?? {};
  const base = rewriteUrls(sample, /octo-org\/octo-repo/g, `${repo.owner}/${repo.repo}`, context.api) as Json;
  const url = `${context.api}/repos/${repo.owner}/${repo.repo}/actions/runs/${run.id}`;
  const minimalRepo = (): Json => renderMinimalRepo(context, repo);
  return {
    ...base,
    id: run.id,
    name: run.name,
    node_id: nodeId('WorkflowRun', run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    url,
    html_url: `https://github.com/${repo.owner}/${repo.repo}/actions/runs/${run.id}`,
    cancel_url: `${url}/cancel`,
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    repository: minimalRepo(),
    head_repository: minimalRepo(),
  };
}
