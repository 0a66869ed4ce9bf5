import { IdCounter } from '../../../src/simulate/id-counter.ts';
import { isoSeconds, MemoryGitHubState, type MemoryUser } from '../../../src/simulate/memory-github-state.ts';
import { TeamRegistry } from '../../../src/simulate/team-registry.ts';
import {
  type FakeApp,
  type FakeRepo,
  type FakeRole,
  type FakeTeamMember,
  type FakeToken,
  type FakeUser,
  fakeSha,
  type RepoRef,
  repoKey,
  type UserInput,
} from './fake-github-records.ts';
import { FakeUserRegistry } from './fake-user-registry.ts';
import type { GitBacking } from './git-backing.ts';

/**
 * What the fake GitHub keeps itself, because it spans repositories or belongs to the HTTP server:
 * the repositories (installation ids, and branches and files when no git backs them), the accounts
 * with their numeric ids, the organisations' teams, the tokens and the app, and the clock and ids
 * shared by all. Each repository's own records live in its `MemoryGitHubState` (the store
 * `agent-mux simulate` uses), made by `addRepo`; `FakeGitHubState` presents them. Teams belong to an
 * organisation, not a repository: one `TeamRegistry` is handed to every repository's state, so a
 * team seeded here is the one each of them checks reviewer requests against.
 */
export class FakeGitHubHost {
  /** Clock for timestamps; replace to control `created_at`/`updated_at`. */
  now: () => Date = () => new Date();
  /** Requests that counted against the rate limit (a 304 does not). */
  rateLimitedRequests = 0;
  /** The app the fake impersonates. */
  app: FakeApp = { id: 1, slug: 'agent-mux', name: 'agent-mux', owner: 'agent-mux' };
  /** Tokens accepted when the server was started with `tokens` (installation tokens are added here). */
  readonly tokens = new Map<string, FakeToken>();
  readonly git: GitBacking | undefined;

  readonly #repos = new Map<string, FakeRepo>();
  /** Each repository's entities, kept by the same in-memory state `agent-mux simulate` uses. */
  readonly #memories = new Map<string, MemoryGitHubState>();
  /** Ids shared by every kind and every repository (and their in-memory states). */
  readonly #ids = new IdCounter(1000);
  readonly #users = new FakeUserRegistry(() => this.nextId());
  /** Every organisation's teams, shared by the repositories' in-memory states. */
  readonly #teams = new TeamRegistry();

  constructor(git?: GitBacking) {
    this.git = git;
  }

  /** A fresh id (ids are unique across all kinds, as GitHub's are in practice). */
  nextId(): number {
    return this.#ids.next();
  }

  /** The current time in GitHub's format. */
  timestamp(): string {
    return isoSeconds(this.now());
  }

  // ── users ──────────────────────────────────────────────────────────────

  /** Registers a user (idempotent) and returns it. A login ending in `[bot]` is a Bot. */
  addUser(input: UserInput): FakeUser {
    return this.#users.add(input);
  }

  /** A known user, or undefined. */
  user(login: string): FakeUser | undefined {
    return this.#users.get(login);
  }

  /** The known account of a record's user (registered on first sight). */
  protected account(user: MemoryUser): FakeUser {
    return this.addUser(user.login);
  }

  // ── repositories ───────────────────────────────────────────────────────

  /** Adds a repository; without git backing its default branch gets a made-up head sha. */
  addRepo(options: RepoRef & { defaultBranch?: string; private?: boolean; installationId?: number }): FakeRepo {
    const defaultBranch = options.defaultBranch ?? 'main';
    const repo: FakeRepo = {
      id: this.nextId(),
      owner: options.owner,
      repo: options.repo,
      defaultBranch,
      private: options.private ?? false,
      installationId: options.installationId ?? 1,
      branches: new Map([[defaultBranch, fakeSha(`${options.owner}/${options.repo}@${defaultBranch}`)]]),
      files: new Map(),
    };
    this.addUser({ login: options.owner, type: 'User' });
    this.#repos.set(repoKey(options), repo);
    const memory = new MemoryGitHubState({
      repo: { owner: options.owner, repo: options.repo },
      defaultBranch,
      selfLogin: 'agent-mux[bot]',
      ids: this.#ids,
      teams: this.#teams,
    });
    memory.now = () => this.now();
    this.#memories.set(repoKey(options), memory);
    return repo;
  }

  /** The in-memory state (the one `agent-mux simulate` uses) that keeps a repository's entities. */
  memory(ref: RepoRef): MemoryGitHubState | undefined {
    return this.#memories.get(repoKey(ref));
  }

  /** A repository's in-memory state, or an Error naming it (for seeding mistakes in tests). */
  protected requireMemory(ref: RepoRef): MemoryGitHubState {
    const memory = this.memory(ref);
    if (memory === undefined)
      throw new Error(`fake GitHub: no repository ${ref.owner}/${ref.repo}; call addRepo first`);
    return memory;
  }

  /** A repository, or undefined. */
  repo(ref: RepoRef): FakeRepo | undefined {
    return this.#repos.get(repoKey(ref));
  }

  /** True when some repository is installed under that installation id. */
  hasInstallation(id: number): boolean {
    return [...this.#repos.values()].some((r) => r.installationId === id);
  }

  /** A repository, or an Error naming it (for seeding mistakes in tests). */
  requireRepo(ref: RepoRef): FakeRepo {
    const repo = this.repo(ref);
    if (repo === undefined) throw new Error(`fake GitHub: no repository ${ref.owner}/${ref.repo}; call addRepo first`);
    return repo;
  }

  /** Gives a user a role on a repository (kept in its in-memory state) and makes the user known. */
  setPermission(ref: RepoRef, login: string, role: FakeRole): void {
    this.requireRepo(ref);
    this.addUser(login);
    this.memory(ref)?.setRole(login, role);
  }

  /** A known user's role (the owner is an admin, `none` without access); undefined for an unknown user. */
  permissionOf(ref: RepoRef, login: string): FakeRole | 'none' | undefined {
    if (this.user(login) === undefined) return undefined;
    return this.memory(ref)?.roleOf(login) ?? 'none';
  }

  /** Sets a branch head (without git backing). */
  setBranch(ref: RepoRef, branch: string, sha: string): void {
    this.requireRepo(ref).branches.set(branch, sha);
  }

  /** Sets a file's text at a branch or sha (without git backing); creates the branch if it is unknown. */
  setFile(ref: RepoRef, gitRef: string, path: string, text: string): void {
    const repo = this.requireRepo(ref);
    if (!/^[0-9a-f]{40}$/.test(gitRef) && !repo.branches.has(gitRef)) {
      repo.branches.set(gitRef, fakeSha(`${repoKey(ref)}@${gitRef}`));
    }
    repo.files.set(`${gitRef}\u0000${path}`, text);
  }

  // ── teams (the organisations', shared with the in-memory states) ───────

  /** Adds a team; members are active `member`s unless given in full. */
  addTeam(org: string, slug: string, members: (string | FakeTeamMember)[]): void {
    this.#teams.add(org, slug, members);
    for (const member of members) this.addUser(typeof member === 'string' ? member : member.login);
  }

  /** A team's membership of a user, or undefined (also for an unknown team). */
  teamMembership(org: string, slug: string, login: string): FakeTeamMember | undefined {
    return this.#teams.membership(org, slug, login);
  }

  /** True when the team exists. */
  hasTeam(org: string, slug: string): boolean {
    return this.#teams.has(org, slug);
  }

  /** The view of the first record `pick` finds in any repository's state (ids are unique across them). */
  protected findInAny<R, V>(
    pick: (memory: MemoryGitHubState) => R | undefined,
    view: (key: string, record: R) => V,
  ): V | undefined {
    for (const [key, memory] of this.#memories) {
      const record = pick(memory);
      if (record !== undefined) return view(key, record);
    }
    return undefined;
  }

  /** Every repository's in-memory state, by repository key (a GraphQL node id names no repository). */
  memories(): [string, MemoryGitHubState][] {
    return [...this.#memories];
  }
}
