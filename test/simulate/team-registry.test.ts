import { describe, expect, it } from 'vitest';
import { MemoryGitHubState } from '../../src/simulate/memory-github-state.ts';
import { TeamRegistry } from '../../src/simulate/team-registry.ts';

describe('TeamRegistry', () => {
  it('keeps members by organisation and slug, compared case-insensitively', () => {
    const teams = new TeamRegistry();
    teams.add('Octo', 'Core', ['Carol', { login: 'dave', role: 'maintainer', state: 'pending' }]);
    expect(teams.has('octo', 'core')).toBe(true);
    expect(teams.has('other', 'core')).toBe(false);
    expect(teams.membership('OCTO', 'core', 'carol')).toEqual({ login: 'Carol', role: 'member', state: 'active' });
    expect(teams.membership('octo', 'core', 'dave')).toEqual({ login: 'dave', role: 'maintainer', state: 'pending' });
    expect(teams.membership('octo', 'core', 'eve')).toBeUndefined();
  });

  it('counts only active members as members', () => {
    const teams = new TeamRegistry();
    teams.add('octo', 'core', ['carol', { login: 'dave', role: 'member', state: 'pending' }]);
    expect(teams.isActiveMember('octo', 'core', 'CAROL')).toBe(true);
    expect(teams.isActiveMember('octo', 'core', 'dave')).toBe(false);
    expect(teams.isActiveMember('octo', 'nobody', 'carol')).toBe(false);
  });

  it('hands out copies: a membership read cannot change the team', () => {
    const teams = new TeamRegistry();
    teams.add('octo', 'core', ['carol']);
    const read = teams.membership('octo', 'core', 'carol');
    if (read !== undefined) read.state = 'pending';
    expect(teams.isActiveMember('octo', 'core', 'carol')).toBe(true);
  });

  it('is one organisation-wide store when repositories’ states share it', () => {
    const teams = new TeamRegistry();
    const state = (repo: string) =>
      new MemoryGitHubState({ repo: { owner: 'octo', repo }, defaultBranch: 'main', selfLogin: 'bot', teams });
    const widgets = state('widgets');
    const gadgets = state('gadgets');
    widgets.addTeam('octo', 'core', ['carol']);
    expect(gadgets.teams.isActiveMember('octo', 'core', 'carol')).toBe(true);
    const alone = new MemoryGitHubState({
      repo: { owner: 'octo', repo: 'x' },
      defaultBranch: 'main',
      selfLogin: 'bot',
    });
    expect(alone.teams.has('octo', 'core')).toBe(false);
  });
});
