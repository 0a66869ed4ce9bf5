/** A user's membership of a team, as `GET /orgs/{org}/teams/{team_slug}/memberships/{username}` answers it. */
export interface TeamMember {
  login: string;
  role: 'member' | 'maintainer';
  state: 'active' | 'pending';
}

/**
 * The teams of every organisation an in-memory GitHub knows. Teams belong to an organisation, not to
 * a repository, while `MemoryGitHubState` keeps one repository: so the teams live here, beside it. A
 * state makes its own registry by default (`agent-mux simulate` has one repository); the HTTP fake of
 * the tests makes one registry and hands it to every repository's state, so a team seeded once is
 * seen from each of them (as `requested_reviewers` of any of the organisation's repositories).
 * Organisations, slugs and logins are compared case-insensitively, as GitHub compares them.
 */
export class TeamRegistry {
  /** `org/slug` (lower case) → members, in the order given. */
  readonly #teams = new Map<string, TeamMember[]>();

  /** Adds (or replaces) a team; members given by login are active `member`s. */
  add(org: string, slug: string, members: readonly (string | TeamMember)[]): void {
    this.#teams.set(
      teamKey(org, slug),
      members.map((m) => (typeof m === 'string' ? { login: m, role: 'member', state: 'active' } : { ...m })),
    );
  }

  /** True when the team exists. */
  has(org: string, slug: string): boolean {
    return this.#teams.has(teamKey(org, slug));
  }

  /** A user's membership of a team, or undefined (also for an unknown team). */
  membership(org: string, slug: string, login: string): TeamMember | undefined {
    const member = this.#teams.get(teamKey(org, slug))?.find((m) => m.login.toLowerCase() === login.toLowerCase());
    return member === undefined ? undefined : { ...member };
  }

  /** True for an active member (a pending invitation is not a membership yet). */
  isActiveMember(org: string, slug: string, login: string): boolean {
    return this.membership(org, slug, login)?.state === 'active';
  }
}

function teamKey(org: string, slug: string): string {
  return `${org}/${slug}`.toLowerCase();
}
