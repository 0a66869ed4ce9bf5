import type { FakeUser, UserInput } from './fake-github-records.ts';

/**
 * The accounts the HTTP fake knows, across all its repositories: each login once, with the numeric
 * id and type GitHub's user objects carry. The repositories' in-memory states keep only login and
 * type on their records; the fake's views look the account up here.
 */
export class FakeUserRegistry {
  readonly #users = new Map<string, FakeUser>();
  readonly #nextId: () => number;

  /** `nextId`: where ids come from (the fake's counter, shared with every other kind). */
  constructor(nextId: () => number) {
    this.#nextId = nextId;
  }

  /** Registers a user (idempotent: a known login keeps its id and type) and returns it. */
  add(input: UserInput): FakeUser {
    const login = typeof input === 'string' ? input : input.login;
    const existing = this.#users.get(login.toLowerCase());
    if (existing !== undefined) return existing;
    const type =
      typeof input === 'string' || input.type === undefined ? (login.endsWith('[bot]') ? 'Bot' : 'User') : input.type;
    const user: FakeUser = { id: this.#nextId(), login, type };
    this.#users.set(login.toLowerCase(), user);
    return user;
  }

  /** A known user, or undefined. */
  get(login: string): FakeUser | undefined {
    return this.#users.get(login.toLowerCase());
  }
}
