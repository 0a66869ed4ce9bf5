import type { GitHubApi } from './github-api.ts';

// The `GitHubApi` methods in the groups both its implementations build them in (`createGitHubApi`
// on Octokit, `createMemoryGitHub` in memory), each group merged into the whole port.

/** The repository, roles, teams, files, branches, workflow runs and Actions cache entries. */
export type RepoMethods = Pick<
  GitHubApi,
  | 'getRepo'
  | 'getPermission'
  | 'isTeamMember'
  | 'getFileText'
  | 'getBranchSha'
  | 'getWorkflowRun'
  | 'cancelWorkflowRun'
  | 'listActionsCaches'
>;

/** Issue comments, reactions included. */
export type CommentMethods = Pick<
  GitHubApi,
  'addReaction' | 'createComment' | 'updateComment' | 'commentLastEditedAt' | 'getComment' | 'listComments'
>;

/** Check runs. */
export type CheckRunMethods = Pick<GitHubApi, 'createCheckRun' | 'updateCheckRun' | 'getCheckRun'>;

/** Pull requests: finding, opening, asking for reviews, listing the files and comparing commits. */
export type PullMethods = Pick<
  GitHubApi,
  'getPull' | 'findOpenPull' | 'createPull' | 'requestReviewers' | 'listPullFiles' | 'compareCommits'
>;

/** Reviews, their comments and the replies in their threads. */
export type ReviewMethods = Pick<
  GitHubApi,
  | 'listReviews'
  | 'listReviewComments'
  | 'listPullComments'
  | 'replyToReviewComment'
  | 'createReview'
  | 'listReviewThreads'
  | 'resolveReviewThread'
>;
