import type { GitHubApi, RepoRef, RepoRole } from '../github-api.ts';
import type { Actor } from '../trigger/trigger-event.ts';
import { isBotAccount, isOwnLogin } from './is-own-login.ts';

/** A repository role name, from `none` to `admin`. */
export type RepoRoleName = RepoRole;

/** The strength of each role: `none` 0, `read` 1, `triage` 2, `write` 3, `maintain` 4, `admin` 5. */
export const roleRank: Record<RepoRole, number> = {
  none: 0,
  read: 1,
  triage: 2,
  write: 3,
  maintain: 4,
  admin: 5,
};

/** True when `role` is `min` or stronger. */
export function roleAtLeast(role: RepoRole, min: RepoRole): boolean {
  return roleRank[role] >= roleRank[min];
}

/** Whether an actor may trigger a run, with their role, or why not. */
export type ActorDecision = { allowed: true; role: RepoRole } | { allowed: false; reason: string };

export interface AuthorizeActorInput {
  api: Pick<GitHubApi, 'getPermission'>;
  repo: RepoRef;
  actor: Actor;
  /** The app's or token's own logins (e.g. `agent-mux[bot]`): they never trigger, so a run cannot start a run. */
  selfLogins: readonly string[];
  /** Bot logins allowed to trigger, compared in full and case-insensitively (no wildcards, prefixes or suffixes). */
  allowedBots: readonly string[];
  /** The weakest repository role that may trigger. */
  minimumRole: RepoRole;
}

/**
 * Decides whether `actor` may trigger a run in `repo`. Refused: the app itself; any bot (type `Bot` or a login ending
 * in `[bot]`) not listed exactly in `allowedBots`; anyone whose role from the collaborator permission API is below
 * `minimumRole` (allowed bots too; `author_association` is never consulted); and anyone when that API fails (fails
 * closed, the error message in the reason). Never throws.
 */
export async function authorizeActor(input: AuthorizeActorInput): Promise<ActorDecision> {
  const { actor, repo, minimumRole } = input;
  const login = actor.login.trim();
  if (login === '') return { allowed: false, reason: 'the event has no actor login' };
  const folded = login.toLowerCase();
  if (isOwnLogin(login, input.selfLogins)) {
    return { allowed: false, reason: `${login} is this app's own account; its own activity never triggers a run` };
  }
  if (isBotAccount(actor) && !input.allowedBots.some((bot) => bot.trim().toLowerCase() === folded)) {
    return { allowed: false, reason: `${login} is a bot that is not in the list of allowed bots` };
  }
  let role: RepoRole;
  try {
    role = await input.api.getPermission(repo, login);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      allowed: false,
      reason: `could not read the permission of ${login} on ${repo.owner}/${repo.repo}: ${message}`,
    };
  }
  if (!Object.hasOwn(roleRank, role)) {
    return {
      allowed: false,
      reason: `${login} has an unknown role ${JSON.stringify(role)} on ${repo.owner}/${repo.repo}`,
    };
  }
  if (!roleAtLeast(role, minimumRole)) {
    return {
      allowed: false,
      reason: `${login} has the ${role} role on ${repo.owner}/${repo.repo}; triggering needs ${minimumRole} or higher`,
    };
  }
  return { allowed: true, role };
}
