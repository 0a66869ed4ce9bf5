import type { Probot } from 'probot';
import { createGitHubApi } from '../github/create-github-api.ts';
import type { GitHubApi, OctokitLike } from '../github/github-api.ts';

/** How the app acts as one installation: its REST API and a token for git. */
export interface InstallationAccess {
  api(installationId: number): Promise<GitHubApi>;
  /** An installation access token (cached and renewed by Probot's app authentication). */
  token(installationId: number): Promise<string>;
}

/** Installation access through a Probot app (`app.auth(installationId)`). */
export function probotInstallationAccess(app: Pick<Probot, 'auth'>): InstallationAccess {
  return {
    async api(installationId) {
      const octokit = await app.auth(installationId);
      return createGitHubApi(octokit as unknown as OctokitLike);
    },
    async token(installationId) {
      const octokit = await app.auth(installationId);
      const auth: unknown = await octokit.auth({ type: 'installation' });
      if (typeof auth === 'object' && auth !== null && 'token' in auth && typeof auth.token === 'string') {
        return auth.token;
      }
      throw new Error(`no installation token for installation ${installationId}`);
    },
  };
}
