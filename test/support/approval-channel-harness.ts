import {
  createGitHubApprovalChannel,
  type GitHubApprovalChannelOptions,
} from '../../src/github/approvals/github-approval-channel.ts';
import type { ReactionTarget, RepoRole } from '../../src/github/github-api.ts';

const repo = { owner: 'octo', repo: 'demo' };

/**
 * A GitHub approval channel over a tiny in-memory stand-in for the few API calls it makes: alice
 * writes, bob maintains, carol reads (and is in team octo/reviewers), dave is an admin; approvers
 * are erin, the team and maintainers. `push` moves the head commit.
 */
export function setup(overrides: Partial<GitHubApprovalChannelOptions> = {}) {
  const roles: Record<string, RepoRole> = { alice: 'write', bob: 'maintain', carol: 'read', dave: 'admin' };
  const teams: Record<string, string[]> = { 'octo/reviewers': ['carol'] };
  const comments = new Map<number, string>();
  const reviewRequests: { users: string[]; teams: string[] }[] = [];
  const reactions: { target: ReactionTarget; content: string }[] = [];
  const notes: string[] = [];
  let head = 'a'.repeat(40);
  let nextId = 1;
  const channel = createGitHubApprovalChannel({
    api: {
      async createComment(_ref, _n, body) {
        const id = nextId++;
        comments.set(id, body);
        return { id, body, htmlUrl: `https://github.com/c/${id}`, user: undefined, createdAt: '', updatedAt: '' };
      },
      async updateComment(_ref, id, body) {
        comments.set(id, body);
      },
      async addReaction(_ref, target, content) {
        reactions.push({ target, content });
      },
      async requestReviewers(_ref, _n, reviewers) {
        reviewRequests.push(reviewers);
      },
      async getPermission(_ref, login) {
        return roles[login] ?? 'none';
      },
      async isTeamMember(org, slug, login) {
        return teams[`${org}/${slug}`]?.includes(login) ?? false;
      },
    },
    repo,
    number: 7,
    isPullRequest: true,
    agent: 'claude',
    rule: { users: ['erin'], teams: ['reviewers'], permission: 'maintain' },
    requestReview: true,
    currentHead: async () => head,
    selfLogins: ['agent-mux[bot]'],
    redact: (text) => text.replaceAll('sk-secret-123456', '***'),
    timeoutText: '30 min',
    onNote: (line) => notes.push(line),
    ...overrides,
  });
  return {
    channel,
    comments,
    reviewRequests,
    reactions,
    notes,
    push: (sha: string) => {
      head = sha;
    },
  };
}
