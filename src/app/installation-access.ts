import type { Probot } from 'probot';
import { budgetedApi } from '../github/budgeted-api.ts';
import { createGitHubApi } from '../github/create-github-api.ts';
import type { GitHubApi, OctokitLike } from '../github/github-api.ts';
import { WriteBudget } from '../github/pacing/write-budget.ts';

/** How the app acts as one installation: its REST API and a token for git. */
export interface InstallationAccess {
  /** The installation's API; its writes count as urgent on `writes(installationId)` when there is one. */
  api(installationId: number): Promise<GitHubApi>;
  /** A fresh installation access token (valid for an hour), for git. */
  token(installationId: number): Promise<string>;
  /** The installation's write budget in this process, which its runs' live updates share. */
  writes?(installationId: number): WriteBudget;
}

/**
 * Installation access through a Probot app (`app.auth(installationId)`). With `throttle: false` the
 * installation's Octokit is made the way Probot makes it but without the throttling plugin's write
 * spacing (1 s between writes, 3 s between comments, per installation and process): for a GitHub
 * stand-in in tests, or a GitHub Enterprise Server without secondary rate limits.
 */
export function probotInstallationAccess(
  app: Pick<Probot, 'auth'>,
  options: { throttle?: boolean } = {},
): InstallationAccess {
  const installation = async (installationId: number): Promise<unknown> =>
    options.throttle === false ? unthrottled(app, installationId) : app.auth(installationId);
  // One budget per installation, as Probot's throttle keeps one write queue per installation.
  const budgets = new Map<number, WriteBudget>();
  const writes = (installationId: number): WriteBudget => {
    let budget = budgets.get(installationId);
    if (budget === undefined) {
      budget = new WriteBudget();
      budgets.set(installationId, budget);
    }
    return budget;
  };
  return {
    async api(installationId) {
      const octokit = await installation(installationId);
      return budgetedApi(createGitHubApi(octokit as OctokitLike), writes(installationId));
    },
    writes,
    async token(installationId) {
      // Asked for as the app (JWT) through the app's Octokit, which knows the GitHub Enterprise base URL:
      // `octokit.auth({ type: 'installation' })` asks @octokit/auth-app's own request, which Probot leaves
      // pointing at api.github.com (a cache miss there failed every run on GHES, e.g. a retried run).
      const appOctokit = await app.auth();
      const { data } = await appOctokit.request('POST /app/installations/{installation_id}/access_tokens', {
        installation_id: installationId,
      });
      const token = (data as { token?: unknown } | null)?.token;
      if (typeof token === 'string' && token !== '') return token;
      throw new Error(`no installation token for installation ${installationId}`);
    },
  };
}

/** What `@octokit/auth-app` hands an installation `factory`: the app's Octokit and its options, and the rest. */
interface FactoryOptions {
  octokit: { constructor: new (options: Record<string, unknown>) => unknown };
  octokitOptions: { auth?: object } & Record<string, unknown>;
  [key: string]: unknown;
}

/** Probot's `getAuthenticatedOctokit`, with `throttle: { enabled: false }`. */
async function unthrottled(app: Pick<Probot, 'auth'>, installationId: number): Promise<unknown> {
  const appOctokit = await app.auth();
  return appOctokit.auth({
    type: 'installation',
    installationId,
    factory: ({ octokit, octokitOptions, ...otherOptions }: FactoryOptions) => {
      const Octokit = octokit.constructor;
      return new Octokit({
        ...octokitOptions,
        throttle: { enabled: false },
        auth: { ...octokitOptions.auth, otherOptions, installationId },
      });
    },
  });
}
