import { describe, expect, it } from 'vitest';
import { claimExclusions, type InFlightKeys } from '../../../src/app/store/claim-exclusions.ts';
import type { ConcurrencyLimits } from '../../../src/app/store/run-store.ts';

const run = (issueKey: string, adapter = 'demo'): InFlightKeys => ({
  issueKey,
  repoKey: issueKey.slice(0, issueKey.indexOf('#')),
  adapter,
});
const limits = (over: Partial<ConcurrencyLimits> = {}): ConcurrencyLimits => ({
  perRepo: 10,
  perAdapter: {},
  defaultPerAdapter: 10,
  ...over,
});

describe('claimExclusions', () => {
  it('an installation at its cap; runs without one count together', () => {
    const of = (installation: string, n: number): InFlightKeys => ({ ...run(`o/a#${n}`), installation });
    const inFlight = [of('1', 1), of('1', 2), of('2', 3), of('', 4), of('', 5)];
    expect(claimExclusions(inFlight, limits({ perInstallation: 2 })).installations).toEqual(['1', '']);
    expect(claimExclusions(inFlight, limits()).installations).toEqual([]);
  });

  it.each([
    {
      name: 'nothing in flight excludes nothing',
      inFlight: [],
      limits: limits(),
      expected: { none: false, issues: [], repos: [], adapters: [], onlyAdapters: undefined },
    },
    {
      name: 'an issue with a run in flight is excluded once',
      inFlight: [run('o/a#1'), run('o/a#1'), run('o/a#2')],
      limits: limits(),
      expected: { none: false, issues: ['o/a#1', 'o/a#2'], repos: [], adapters: [], onlyAdapters: undefined },
    },
    {
      name: 'a run on a pull request of an issue’s conversation excludes the pull request and the issue',
      inFlight: [{ ...run('o/a#8'), conversationKey: 'o/a#7' }, run('o/a#9')],
      limits: limits(),
      expected: { none: false, issues: ['o/a#8', 'o/a#7', 'o/a#9'], repos: [], adapters: [], onlyAdapters: undefined },
    },
    {
      name: 'a repository at its limit',
      inFlight: [run('o/a#1'), run('o/a#2'), run('o/b#1')],
      limits: limits({ perRepo: 2 }),
      expected: {
        none: false,
        issues: ['o/a#1', 'o/a#2', 'o/b#1'],
        repos: ['o/a'],
        adapters: [],
        onlyAdapters: undefined,
      },
    },
    {
      name: 'a listed adapter at its limit, an unlisted one under the default',
      inFlight: [run('o/a#1', 'claude'), run('o/a#2', 'codex')],
      limits: limits({ perAdapter: { claude: 1 }, defaultPerAdapter: 2 }),
      expected: { none: false, issues: ['o/a#1', 'o/a#2'], repos: [], adapters: ['claude'], onlyAdapters: undefined },
    },
    {
      name: 'an unlisted adapter at the default',
      inFlight: [run('o/a#1', 'codex')],
      limits: limits({ defaultPerAdapter: 1 }),
      expected: { none: false, issues: ['o/a#1'], repos: [], adapters: ['codex'], onlyAdapters: undefined },
    },
    {
      name: 'a listed adapter with limit 0 even when idle',
      inFlight: [],
      limits: limits({ perAdapter: { codex: 0 } }),
      expected: { none: false, issues: [], repos: [], adapters: ['codex'], onlyAdapters: undefined },
    },
    {
      name: 'default 0: only listed adapters with room may run',
      inFlight: [run('o/a#1', 'claude')],
      limits: limits({ perAdapter: { claude: 1, codex: 2 }, defaultPerAdapter: 0 }),
      expected: { none: false, issues: ['o/a#1'], repos: [], adapters: ['claude'], onlyAdapters: ['codex'] },
    },
    {
      name: 'perRepo 0 starts nothing',
      inFlight: [],
      limits: limits({ perRepo: 0 }),
      expected: { none: true, issues: [], repos: [], adapters: [], onlyAdapters: undefined },
    },
  ])('$name', ({ inFlight, limits, expected }) => {
    expect(claimExclusions(inFlight, limits)).toEqual({ installations: [], ...expected });
  });
});
