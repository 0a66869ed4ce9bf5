import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { prepareWorkspace } from '../../../src/github/git/prepare-workspace.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

/**
 * actions/checkout persists the workflow token as an `AUTHORIZATION: basic …` extra header
 * (`persist-credentials` defaults to true): v4/v5 in `.git/config`, v6 in a file under
 * `$RUNNER_TEMP` that `.git/config` includes, and the same for each submodule. After
 * prepareWorkspace (which runs before the agent) no file the checkout points to may still hold it.
 * A failing row names the place the agent could read the token from again.
 */

const token = 'ghs_PersistedCheckoutToken0123456789';
const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
const header = `AUTHORIZATION: basic ${basic}`;

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture({ 'README.md': '# demo\n' });
});
afterEach(async () => {
  await fixture.cleanup();
});

/** Every file under `dir` (recursively) whose content holds the credential. */
async function filesHoldingCredential(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  const found: string[] = [];
  for (const entry of names) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const text = await readFile(path, 'latin1');
    if (text.includes(basic) || text.includes(token)) found.push(path);
  }
  return found;
}

interface Persisted {
  name: string;
  /** Plants the header the way actions/checkout (some version) does; returns where it lives. */
  plant(clone: string, outside: string): Promise<void>;
}

const attacks: Persisted[] = [
  {
    name: 'actions/checkout v4/v5: http.<server>/.extraheader in .git/config',
    plant: async (clone) => {
      await git(clone, 'config', '--local', 'http.https://github.com/.extraheader', header);
    },
  },
  {
    name: 'a general http.extraheader in .git/config',
    plant: async (clone) => {
      await git(clone, 'config', '--local', 'http.extraheader', header);
    },
  },
  {
    name: 'actions/checkout v6: includeIf.gitdir:<git dir>.path to a credentials file in RUNNER_TEMP',
    plant: async (clone, outside) => {
      const file = join(outside, 'git-credentials-1b2c.config');
      await writeFile(file, `[http "https://github.com/"]\n\textraheader = ${header}\n`);
      await git(clone, 'config', '--local', `includeIf.gitdir:${join(clone, '.git')}/.path`, file);
    },
  },
  {
    name: 'include.path (relative) to a credentials file that includes another',
    plant: async (clone, outside) => {
      const inner = join(outside, 'inner.config');
      await writeFile(inner, `[http]\n\textraheader = ${header}\n`);
      await writeFile(join(clone, '.git', 'credentials.config'), `[include]\n\tpath = ${inner}\n`);
      await git(clone, 'config', '--local', 'include.path', 'credentials.config');
    },
  },
  {
    name: 'a submodule checked out with the header (.git/modules/<name>/config)',
    plant: async (clone) => {
      const module = join(clone, '.git', 'modules', 'lib', 'nested');
      await mkdir(module, { recursive: true });
      await writeFile(
        join(module, 'config'),
        `[core]\n\tbare = false\n[http "https://github.com/"]\n\textraheader = ${header}\n`,
      );
    },
  },
];

describe('the checkout’s persisted credential is gone before the agent runs', () => {
  test.each(attacks.map((attack) => [attack.name, attack] as const))('%s', async (_name, attack) => {
    const outside = join(fixture.dir, 'runner-temp');
    await mkdir(outside, { recursive: true });
    await attack.plant(fixture.clone, outside);
    expect((await filesHoldingCredential(fixture.dir)).length).toBeGreaterThan(0);

    await prepareWorkspace({ cwd: fixture.clone, target: { kind: 'issue', defaultBranch: 'main' } });

    expect(await filesHoldingCredential(fixture.dir)).toEqual([]);
    // The repository still works for agent-mux's git.
    expect(await git(fixture.clone, 'status', '--porcelain')).toBe('');
  });
});
