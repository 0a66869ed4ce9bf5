import { AgentMuxError } from '../../core/errors/agent-mux-error.ts';
import { GitHubApiError } from '../github-api-error.ts';

/** GitHub's words when a workflow's `GITHUB_TOKEN` may not open pull requests (a repository or organisation setting). */
const ACTIONS_MAY_NOT = /not permitted to create or approve pull requests/i;

/**
 * What a refused `POST /pulls` means for the user: a 403 names the setting or permission to change
 * and says that the branch was pushed, so nothing is lost. Any other error is returned as it is.
 */
export function pullRequestRefused(error: unknown, branch: string): unknown {
  if (!GitHubApiError.isInstance(error) || error.status !== 403) return error;
  const fix = ACTIONS_MAY_NOT.test(error.message)
    ? 'GitHub Actions may not open pull requests in this repository: turn on Settings → Actions → General → ' +
      'Workflow permissions → "Allow GitHub Actions to create and approve pull requests" (an organisation may ' +
      'lock it off for its repositories)'
    : 'the token may not open pull requests here (it needs pull-requests: write)';
  return new AgentMuxError(
    'pull_request_refused',
    `${fix}. The changes were pushed to the branch ${branch}: open the pull request from it by hand, or mention the agent again once fixed. (${error.message})`,
    { cause: error },
  );
}
