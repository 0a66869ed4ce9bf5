import type { GitHubApi, GitHubUser, RepoRef, RepoRole } from '../github-api.ts';
import { roleAtLeast } from '../trust/authorize-actor.ts';
import { isBotAccount, isOwnLogin } from '../trust/is-own-login.ts';

/** Who may answer an approval: listed users, members of listed teams, or anyone with at least `permission`. */
export interface ApproverRule {
  users: readonly string[];
  /** `org/team-slug`, or `team-slug` for a team of the repository owner's organisation. */
  teams: readonly string[];
  /** The minimum repository role that makes anyone an approver. */
  permission: RepoRole;
}

export type ApproverVerdict = { ok: true; via: string } | { ok: false; reason: string };

/**
 * Decides whether `login` may approve. Bots and the front end's own logins never may; the rest
 * must be listed, be in a listed team, or hold the role. API failures refuse (fail closed).
 */
export async function checkApprover(input: {
  api: Pick<GitHubApi, 'getPermission' | 'isTeamMember'>;
  repo: RepoRef;
  login: string;
  type: string;
  rule: ApproverRule;
  selfLogins: readonly string[];
}): Promise<ApproverVerdict> {
  const { api, repo, login, rule } = input;
  const lower = login.toLowerCase();
  if (isOwnLogin(login, input.selfLogins)) return { ok: false, reason: `@${login} is agent-mux itself` };
  if (isBotAccount({ login, type: input.type })) return { ok: false, reason: `@${login} is a bot` };
  try {
    if (rule.users.some((user) => user.toLowerCase() === lower)) return { ok: true, via: 'listed approver' };
    for (const team of rule.teams) {
      const [org, slug] = team.includes('/') ? team.split('/', 2) : [repo.owner, team];
      if (org && slug && (await api.isTeamMember(org, slug, login)))
        return { ok: true, via: `member of ${org}/${slug}` };
    }
    const role = await api.getPermission(repo, login);
    if (roleAtLeast(role, rule.permission)) return { ok: true, via: `${role} permission` };
    return { ok: false, reason: `@${login} has ${role} permission; approvers need ${rule.permission} or a listing` };
  } catch (error) {
    return {
      ok: false,
      reason: `could not check @${login}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** Whether an actor is a bot or agent-mux itself: such answers never count and never get a reply. */
export function isBotOrSelf(actor: GitHubUser, selfLogins: readonly string[]): boolean {
  return isBotAccount(actor) || isOwnLogin(actor.login, selfLogins);
}

/** Who may answer, for the approval comment: "users with write permission or above; @alice; team @org/sec". */
export function describeApprovers(rule: ApproverRule): string {
  const role = rule.permission === 'admin' ? 'admin permission' : `${rule.permission} permission or above`;
  return [`users with ${role}`, ...rule.users.map((u) => `@${u}`), ...rule.teams.map((t) => `team @${t}`)].join('; ');
}
