import { createHash } from 'node:crypto';
import type { TeamMember } from '../../../src/simulate/team-registry.ts';

/*
 * The HTTP fake's views: what its tests seed and read back, in the shape GitHub's REST responses are
 * rendered from. Issues, pull requests, comments, reviews, check runs, reactions and workflow runs
 * are stored by the repositories' in-memory states; these are snapshots of them (`fake-github-views.ts`).
 */

/** A repository's owner and name. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** A repository role a collaborator can hold. */
export type FakeRole = 'admin' | 'maintain' | 'write' | 'triage' | 'read';

/** A GitHub account as the fake knows it. */
export interface FakeUser {
  id: number;
  login: string;
  type: 'Bot' | 'User' | 'Organization';
}

/** A user given by login (a `User` unless it ends in `[bot]`) or in full. */
export type UserInput = string | { login: string; type?: FakeUser['type'] };

export interface FakeRepo {
  id: number;
  owner: string;
  repo: string;
  defaultBranch: string;
  private: boolean;
  installationId: number;
  /** Branch name → head sha (used without git backing). */
  branches: Map<string, string>;
  /** `${gitRef}\u0000${path}` → file text (used without git backing). */
  files: Map<string, string>;
}

export interface FakeIssue {
  repoKey: string;
  number: number;
  title: string;
  body: string;
  user: FakeUser;
  state: 'open' | 'closed';
  createdAt: string;
  updatedAt: string;
}

export interface FakePull extends FakeIssue {
  headRef: string;
  headSha: string;
  baseRef: string;
  /** Owner of the head repository (the base owner unless from a fork); undefined when the fork is deleted. */
  headOwner: string | undefined;
  headRepo: string | undefined;
  fromFork: boolean;
  maintainerCanModify: boolean;
  draft: boolean;
  requestedReviewers: string[];
  requestedTeams: string[];
}

export interface FakeComment {
  id: number;
  repoKey: string;
  issueNumber: number;
  body: string;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
  /** GraphQL's `lastEditedAt`: null until its body is edited. */
  lastEditedAt: string | null;
}

export interface FakeReviewComment {
  id: number;
  repoKey: string;
  pullNumber: number;
  body: string;
  path: string;
  user: FakeUser;
  createdAt: string;
  /** The review it belongs to (GitHub makes one for a lone comment too); null when none was given. */
  reviewId: number | null;
  /** The thread's first comment, for a reply. */
  inReplyToId: number | undefined;
  /** The last commented line (`line`), and the first of a multi-line comment (`start_line`). */
  line: number;
  startLine: number | null;
  side: 'LEFT' | 'RIGHT';
  startSide: 'LEFT' | 'RIGHT' | null;
  /** The lines on the commit it was written on; equal to `line`/`startLine` unless set. */
  originalLine: number;
  originalStartLine: number | null;
  diffHunk: string;
  commitId: string;
  originalCommitId: string;
}

/** Where a review comment is written, beyond its path: lines, sides, hunk, commit, review. */
export interface ReviewCommentPlace {
  line?: number;
  startLine?: number;
  side?: 'LEFT' | 'RIGHT';
  startSide?: 'LEFT' | 'RIGHT';
  originalLine?: number;
  originalStartLine?: number;
  diffHunk?: string;
  commitId?: string;
  originalCommitId?: string;
  reviewId?: number;
  inReplyToId?: number;
}

export interface FakeReview {
  id: number;
  repoKey: string;
  pullNumber: number;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'PENDING' | 'DISMISSED';
  body: string;
  user: FakeUser;
  commitId: string;
  submittedAt: string;
}

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: string;
  message: string;
  title?: string;
  [key: string]: unknown;
}

export interface FakeCheckRun {
  id: number;
  repoKey: string;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  externalId: string | null;
  detailsUrl: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations: FakeAnnotation[] };
  actions: { label: string; description: string; identifier: string }[];
  /** Who created it (the token's identity). */
  creator: FakeUser;
  /** Number of PATCH requests applied. */
  updates: number;
}

export type ReactionTargetKind = 'issue_comment' | 'review_comment' | 'issue';

export interface FakeReaction {
  id: number;
  repoKey: string;
  target: { kind: ReactionTargetKind; id: number };
  content: string;
  user: FakeUser;
  createdAt: string;
}

export interface FakeWorkflowRun {
  id: number;
  repoKey: string;
  name: string;
  event: string;
  status: string;
  conclusion: string | null;
  headBranch: string;
  headSha: string;
  createdAt: string;
  updatedAt: string;
  cancelRequested: boolean;
}

/** A user's membership of a team (kept in the registry the repositories' in-memory states share). */
export type FakeTeamMember = TeamMember;

/** The GitHub App the fake pretends to be (for `GET /app` and installation tokens). */
export interface FakeApp {
  id: number;
  slug: string;
  name: string;
  owner: string;
}

/** A token the fake accepts and whose identity acts. */
export interface FakeToken {
  login: string;
  type: 'Bot' | 'User';
}

/** The key of a repository in the state's maps: `owner/repo`, lower-cased as GitHub compares them. */
export function repoKey(ref: RepoRef): string {
  return `${ref.owner}/${ref.repo}`.toLowerCase();
}

/** A 40-hex-digit sha derived from a seed (stable across runs). */
export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

/** True for a pull request (a pull is also an issue). */
export function isPull(issue: FakeIssue | FakePull): issue is FakePull {
  return 'headRef' in issue;
}
