import { describe, expect, it } from 'vitest';
import type { RepoRef, RepoRole } from '../../../src/github/github-api.ts';
import type { Actor } from '../../../src/github/trigger/trigger-event.ts';
import {
  type ActorDecision,
  authorizeActor,
  roleAtLeast,
  roleRank,
} from '../../../src/github/trust/authorize-actor.ts';

const repo: RepoRef = { owner: 'octo-org', repo: 'octo-repo' };

/** An in-memory `getPermission`: logins compared case-insensitively, as GitHub does; unknown logins are `none`. */
function permissions(roles: Record<string, RepoRole>, calls: string[] = []) {
  return {
    async getPermission(ref: RepoRef, username: string): Promise<RepoRole> {
      calls.push(`${ref.owner}/${ref.repo}:${username}`);
      const entry = Object.entries(roles).find(([login]) => login.toLowerCase() === username.toLowerCase());
      return entry ? entry[1] : 'none';
    },
  };
}

const roles: Record<string, RepoRole> = {
  reader: 'read',
  writer: 'write',
  boss: 'admin',
  'good[bot]': 'write',
  'evil[bot]': 'write',
  'dependabot[bot]': 'none',
  'agent-mux[bot]': 'admin',
};

const user = (login: string): Actor => ({ login, type: 'User' });
const bot = (login: string): Actor => ({ login, type: 'Bot' });

async function decide(actor: Actor, minimumRole: RepoRole = 'write', calls: string[] = []): Promise<ActorDecision> {
  return authorizeActor({
    api: permissions(roles, calls),
    repo,
    actor,
    selfLogins: ['Agent-Mux[bot]'],
    allowedBots: ['good[bot]', 'Dependabot[bot]'],
    minimumRole,
  });
}

describe('roleAtLeast', () => {
  const order: RepoRole[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

  it('ranks the roles from none 0 to admin 5', () => {
    expect(order.map((role) => roleRank[role])).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it.each(order.flatMap((role, i) => order.map((min, j) => [role, min, i >= j] as const)))(
    '%s at least %s is %s',
    (role, min, expected) => {
      expect(roleAtLeast(role, min)).toBe(expected);
    },
  );
});

describe('authorizeActor', () => {
  it.each([
    ['read-only user', user('reader'), 'write', false, /reader has the read role .*needs write/],
    ['read-only user when read suffices', user('reader'), 'read', true, 'read'],
    ['write user', user('writer'), 'write', true, 'write'],
    ['admin', user('boss'), 'maintain', true, 'admin'],
    ['login case differs', user('WRITER'), 'write', true, 'write'],
    ['stranger', user('someone'), 'read', false, /someone has the none role/],
    ['bot not listed', bot('renovate[bot]'), 'read', false, /not in the list of allowed bots/],
    ['[bot] login typed as User', user('renovate[bot]'), 'read', false, /not in the list of allowed bots/],
    ['Bot type without [bot] suffix', bot('good'), 'read', false, /not in the list of allowed bots/],
    ['evil[bot] when good[bot] is listed', bot('evil[bot]'), 'write', false, /evil\[bot\] is a bot/],
    ['suffix of a listed bot', bot('notgood[bot]'), 'read', false, /allowed bots/],
    ['listed bot with permission', bot('good[bot]'), 'write', true, 'write'],
    ['listed bot, case differs', bot('GOOD[bot]'), 'write', true, 'write'],
    ['dependabot[bot] listed but permission none', bot('dependabot[bot]'), 'read', false, /none role/],
    ['self login', bot('agent-mux[bot]'), 'read', false, /own account/],
    ['self login even as a User', user('AGENT-MUX[BOT]'), 'read', false, /own account/],
    ['empty login', user(''), 'read', false, /no actor login/],
  ] as const)('%s', async (_name, actor, minimumRole, allowed, expected) => {
    const decision = await decide(actor, minimumRole);
    if (allowed) {
      expect(decision).toEqual({ allowed: true, role: expected });
    } else {
      expect(decision.allowed).toBe(false);
      if (!decision.allowed) expect(decision.reason).toMatch(expected as RegExp);
    }
  });

  it('asks the permission API about the actor in the repository', async () => {
    const calls: string[] = [];
    await decide(user('writer'), 'write', calls);
    expect(calls).toEqual(['octo-org/octo-repo:writer']);
  });

  it('refuses self and unlisted bots without asking the API', async () => {
    const calls: string[] = [];
    await decide(bot('agent-mux[bot]'), 'read', calls);
    await decide(bot('evil2[bot]'), 'read', calls);
    expect(calls).toEqual([]);
  });

  it.each([new Error('HTTP 502 Bad Gateway'), 'socket hang up'])(
    'fails closed when the API fails: %s',
    async (error) => {
      const decision = await authorizeActor({
        api: {
          getPermission: () => Promise.reject(error),
        },
        repo,
        actor: user('boss'),
        selfLogins: [],
        allowedBots: [],
        minimumRole: 'read',
      });
      expect(decision).toEqual({
        allowed: false,
        reason: `could not read the permission of boss on octo-org/octo-repo: ${error instanceof Error ? error.message : error}`,
      });
    },
  );

  it('fails closed on a role it does not know', async () => {
    const decision = await authorizeActor({
      api: { getPermission: async () => 'superuser' as RepoRole },
      repo,
      actor: user('boss'),
      selfLogins: [],
      allowedBots: [],
      minimumRole: 'read',
    });
    expect(decision.allowed).toBe(false);
  });
});
