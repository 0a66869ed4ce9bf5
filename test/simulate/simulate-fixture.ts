import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

/** A README with the typo the demo agent fixes. */
export const TYPO_README = '# Demo project\n\nThis projcet shows how agent-mux runs an agent.\n';

const env = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

/** Runs git in `cwd` (a fixture step, not the code under test). */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd, env, stdin: 'ignore' })).stdout;
}

export interface SimulateFixture {
  root: string;
  /** A git checkout on `main` with the committed files. */
  checkout: string;
  /** A bare clone of the checkout (for tests of the stand-in itself). */
  bare(): Promise<string>;
  cleanup(): Promise<void>;
}

/** A temporary git checkout on `main` holding a README with a typo, plus `files`, in one commit. */
export async function createSimulateFixture(files: Record<string, string> = {}): Promise<SimulateFixture> {
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-sim-test-'));
  const checkout = join(root, 'checkout');
  await mkdir(checkout);
  await git(checkout, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries({ 'README.md': TYPO_README, ...files })) {
    await mkdir(dirname(join(checkout, path)), { recursive: true });
    await writeFile(join(checkout, path), text);
  }
  await git(checkout, 'add', '-A');
  await git(checkout, 'commit', '-q', '-m', 'initial');
  let bares = 0;
  return {
    root,
    checkout,
    async bare() {
      const path = join(root, `bare-${bares++}.git`);
      await git(root, 'clone', '-q', '--bare', checkout, path);
      return path;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
