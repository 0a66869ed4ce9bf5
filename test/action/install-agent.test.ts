import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import semver from 'semver';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AgentInstallError, ensureAgentProgram, pinnedVersions } from '../../src/action/install-agent.ts';
import { INSTALL_MARKER, packageCacheRoot } from '../../src/action/install-cache.ts';
import { claudeAdapter } from '../../src/adapters/agents/claude/index.ts';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';
import type { ProgramInfo } from '../../src/core/adapter/adapter.ts';
import { AgentMuxError } from '../../src/core/errors/agent-mux-error.ts';
import { findOnPath } from '../../src/core/host/find-on-path.ts';
import { AdapterRegistry } from '../../src/core/registry/adapter-registry.ts';

const fixtureDir = fileURLToPath(new URL('../fixtures/npm/fake-agent-cli/', import.meta.url));
/** Node and npm first, then the rest of the runner's PATH (which has no `fake-agent-cli`). */
const basePath = [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter);

const program: ProgramInfo = {
  command: 'fake-agent-cli',
  versionArgs: ['--version'],
  minVersion: '1.0.0',
  install: [{ type: 'npm', command: 'npm install -g fake-agent-cli' }],
  npmPackage: 'fake-agent-cli',
  testedVersion: '1.2.3',
  verifiedLive: true,
};

let work: string;
let tarball: string;
let toolCacheDir: string;
let env: Record<string, string | undefined>;
let lines: string[];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'agent-mux-install-'));
  const packed = await execa('npm', ['pack', fixtureDir, '--pack-destination', work, '--json'], {
    env: { PATH: basePath },
  });
  const [info] = JSON.parse(packed.stdout) as [{ filename: string }];
  tarball = join(work, info.filename);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

beforeEach(async () => {
  toolCacheDir = await mkdtemp(join(work, 'tool-cache-'));
  // A private npm cache, and no update check: the tests need no network.
  env = {
    ...process.env,
    PATH: basePath,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_offline: 'true',
  };
  lines = [];
});

const log = (line: string): void => {
  lines.push(line);
};

/** A directory holding an executable `fake-agent-cli` that prints `version` (or exits 1). */
async function stubDir(version: string | 'broken'): Promise<string> {
  const dir = await mkdtemp(join(work, 'stub-'));
  const body = version === 'broken' ? 'echo "boom" >&2\nexit 1' : `echo "fake-agent-cli ${version}"`;
  await writeFile(join(dir, 'fake-agent-cli'), `#!/bin/sh\n${body}\n`);
  await chmod(join(dir, 'fake-agent-cli'), 0o755);
  return dir;
}

function cacheRoot(): string {
  return packageCacheRoot(toolCacheDir, 'fake-agent-cli');
}

describe('ensureAgentProgram', () => {
  it('needs nothing for an adapter without a program', async () => {
    const result = await ensureAgentProgram({ program: undefined, toolCacheDir, env });
    expect(result).toMatchObject({ command: '', binDir: '', version: undefined, source: 'none' });
    expect(result.ms).toBeGreaterThanOrEqual(0);
  });

  it('installs the pinned version from npm, then finds it in the tool cache', async () => {
    const first = await ensureAgentProgram({ program, toolCacheDir, env, packageSpec: tarball, log });
    const dir = join(cacheRoot(), '1.2.3');
    expect(first).toMatchObject({
      source: 'installed',
      version: '1.2.3',
      command: join(dir, 'node_modules', '.bin', 'fake-agent-cli'),
      binDir: join(dir, 'node_modules', '.bin'),
    });
    expect(lines).toContainEqual(expect.stringMatching(/^installed fake-agent-cli@1\.2\.3 in \d+\.\d s$/));
    const ran = await execa(first.command, ['--version'], { env: { PATH: basePath } });
    expect(ran.stdout).toBe('fake-agent-cli 1.2.3');
    // A real copy in the cache (a packed tarball, not a symlink to the fixture), marked complete, nothing partial left.
    expect(existsSync(join(dir, 'node_modules', 'fake-agent-cli', 'cli.js'))).toBe(true);
    expect(JSON.parse(await readFile(join(dir, INSTALL_MARKER), 'utf8'))).toMatchObject({
      npmPackage: 'fake-agent-cli',
      version: '1.2.3',
      spec: tarball,
    });
    expect(await readdir(cacheRoot())).toEqual(['1.2.3']);

    // npm is not run again: a missing npm would fail.
    const second = await ensureAgentProgram({
      program,
      toolCacheDir,
      env,
      packageSpec: tarball,
      npmCommand: join(work, 'no-such-npm'),
      log,
    });
    expect(second).toMatchObject({ source: 'cache', version: '1.2.3', command: first.command, binDir: first.binDir });
    expect(lines.at(-1)).toMatch(/^using fake-agent-cli@1\.2\.3 from the tool cache/);
  });

  it.each([
    // [version on PATH, requested version, expected source]
    ['1.2.3', undefined, 'path'],
    ['1.2.3', '1.2.3', 'path'],
    ['v1.2.3', 'v1.2.3', 'path'],
    ['9.9.9', 'latest', 'path'],
    ['1.4.0', '^1.2.0', 'path'],
    ['9.9.9', undefined, 'installed'],
    ['1.2.2', '1.2.3', 'installed'],
    ['2.0.0', '^1.2.0', 'installed'],
    ['broken', undefined, 'installed'],
    ['broken', 'latest', 'installed'],
  ] as const)('with %s on PATH and %s asked for: %s', async (onPath, version, source) => {
    const dir = await stubDir(onPath);
    const result = await ensureAgentProgram({
      program,
      ...(version === undefined ? {} : { version }),
      toolCacheDir,
      env: { ...env, PATH: `${dir}${delimiter}${basePath}` },
      packageSpec: tarball,
      log,
    });
    expect(result.source).toBe(source);
    if (source === 'path') {
      expect(result.command).toBe(join(dir, 'fake-agent-cli'));
      expect(result.binDir).toBe(dir);
      expect(result.version).toBe(semver.clean(onPath));
      expect(existsSync(cacheRoot())).toBe(false);
    } else {
      expect(result.command).toBe(join(cacheRoot(), '1.2.3', 'node_modules', '.bin', 'fake-agent-cli'));
      expect(result.version).toBe('1.2.3');
    }
  });

  it('fails with npm’s message when the package spec is broken, leaving nothing behind', async () => {
    const missing = join(work, 'missing-1.2.3.tgz');
    const error = await ensureAgentProgram({ program, toolCacheDir, env, packageSpec: missing }).catch(
      (caught: unknown) => caught,
    );
    expect(AgentInstallError.isInstance(error)).toBe(true);
    expect(AgentMuxError.isInstance(error)).toBe(true);
    const installError = error as AgentInstallError;
    expect(installError.code).toBe('agent_install_failed');
    expect(installError.npmPackage).toBe('fake-agent-cli');
    expect(installError.message).toContain(`could not install ${missing}: npm install failed`);
    expect(installError.stderrTail).toMatch(/ENOENT|no such file/i);
    expect(installError.message).toContain(installError.stderrTail);
    expect(await readdir(cacheRoot())).toEqual([]);
  });

  it.each([
    {
      name: 'the package has no executable of that name',
      program: { ...program, command: 'other-cli' },
      version: undefined,
      message: /has no executable named other-cli/,
    },
    {
      name: 'npm installed another version than the exact one asked for',
      program,
      version: '2.0.0',
      message: /npm installed version 1\.2\.3, not 2\.0\.0/,
    },
    {
      name: 'npm installed a version outside the range asked for',
      program,
      version: '^2.0.0',
      message: /npm installed version 1\.2\.3, which is not in \^2\.0\.0/,
    },
    {
      name: 'the installed program does not run its version command',
      program: { ...program, versionArgs: ['--version', '--fail'] },
      version: undefined,
      message: /did not run fake-agent-cli --version --fail/,
      stderr: /failing as asked/,
    },
  ])('rejects an install when $name', async ({ program: info, version, message, stderr }) => {
    const error = await ensureAgentProgram({
      program: info,
      ...(version === undefined ? {} : { version }),
      toolCacheDir,
      env,
      packageSpec: tarball,
    }).catch((caught: unknown) => caught);
    expect(AgentInstallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    if (stderr) expect((error as AgentInstallError).stderrTail).toMatch(stderr);
    expect(await readdir(cacheRoot())).toEqual([]);
  });

  it('ignores and replaces an unfinished install, but leaves a live one alone', async () => {
    const root = cacheRoot();
    const deadPartial = join(root, '1.2.3.partial-999999999');
    const livePartial = join(root, `1.2.3.partial-${process.ppid}`);
    const unmarked = join(root, '1.2.3');
    for (const dir of [deadPartial, livePartial, unmarked]) {
      await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
      await writeFile(join(dir, 'node_modules', '.bin', 'fake-agent-cli'), '#!/bin/sh\necho "fake-agent-cli 0.0.1"\n', {
        mode: 0o755,
      });
    }
    const result = await ensureAgentProgram({ program, toolCacheDir, env, packageSpec: tarball, log });
    expect(result).toMatchObject({ source: 'installed', version: '1.2.3' });
    expect(existsSync(join(unmarked, INSTALL_MARKER))).toBe(true);
    expect((await execa(result.command, ['--version'], { env: { PATH: basePath } })).stdout).toBe(
      'fake-agent-cli 1.2.3',
    );
    expect((await readdir(root)).sort()).toEqual(['1.2.3', `1.2.3.partial-${process.ppid}`]);
    expect(lines).toContainEqual(`removed the unfinished install ${deadPartial}`);
  });

  it('installs once when two callers in one process ask at the same time', async () => {
    const results = await Promise.all([
      ensureAgentProgram({ program, toolCacheDir, env, packageSpec: tarball }),
      ensureAgentProgram({ program, toolCacheDir, env, packageSpec: tarball }),
    ]);
    expect(results.map((r) => r.source).sort()).toEqual(['cache', 'installed']);
    expect(results[0]?.command).toBe(results[1]?.command);
  });

  it('installs “latest” from a package spec under the version npm installed', async () => {
    const result = await ensureAgentProgram({ program, version: 'latest', toolCacheDir, env, packageSpec: tarball });
    expect(result).toMatchObject({ source: 'installed', version: '1.2.3' });
    expect(result.command).toBe(join(cacheRoot(), '1.2.3', 'node_modules', '.bin', 'fake-agent-cli'));
  });

  it('uses the best cached version when the registry cannot say what “latest” is', async () => {
    await ensureAgentProgram({ program, toolCacheDir, env, packageSpec: tarball });
    const offline = { ...env, npm_config_fetch_retries: '0' };
    const unreachable = 'http://127.0.0.1:9/';
    const cached = await ensureAgentProgram({
      program,
      version: 'latest',
      toolCacheDir,
      env: offline,
      registry: unreachable,
      log,
    });
    expect(cached).toMatchObject({ source: 'cache', version: '1.2.3' });
    expect(lines).toContainEqual(
      expect.stringMatching(/^could not resolve fake-agent-cli@latest .*using the cached 1\.2\.3$/s),
    );

    const error = await ensureAgentProgram({
      program,
      version: '^3.0.0',
      toolCacheDir,
      env: offline,
      registry: unreachable,
    }).catch((caught: unknown) => caught);
    expect(AgentInstallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^could not resolve fake-agent-cli@\^3\.0\.0: /);
  });

  it('names the documented install commands for a program that is not on npm', async () => {
    const hermesLike: ProgramInfo = {
      command: 'fake-agent-cli',
      versionArgs: ['--version'],
      minVersion: '0.22.0',
      install: [
        { type: 'pip', command: 'pip install hermes-agent', notes: 'Python >= 3.11.' },
        { type: 'curl', command: 'curl -fsSL https://example.test/install.sh | bash', platforms: ['darwin', 'linux'] },
      ],
      verifiedLive: false,
    };
    const error = await ensureAgentProgram({ program: hermesLike, toolCacheDir, env }).catch(
      (caught: unknown) => caught,
    );
    expect(AgentInstallError.isInstance(error)).toBe(true);
    expect((error as AgentInstallError).npmPackage).toBeUndefined();
    expect((error as Error).message).toContain('fake-agent-cli is not on PATH and is not published on npm');
    expect((error as Error).message).toContain('pip: pip install hermes-agent — Python >= 3.11.');
    expect((error as Error).message).toContain(
      'curl: curl -fsSL https://example.test/install.sh | bash (darwin, linux)',
    );

    // On PATH it is used, whatever its version: there is nothing else to run.
    const dir = await stubDir('0.9.0');
    const result = await ensureAgentProgram({
      program: { ...hermesLike, testedVersion: '0.22.0' },
      toolCacheDir,
      env: { ...env, PATH: `${dir}${delimiter}${basePath}` },
      log,
    });
    expect(result).toMatchObject({ source: 'path', version: '0.9.0', command: join(dir, 'fake-agent-cli') });
    expect(lines.at(-1)).toMatch(/0\.22\.0 was asked for, but fake-agent-cli cannot be installed from npm/);
  });

  it('installs with the program’s npm overrides (a launcher’s dependency at the version tested), and reinstalls a cached install made with other ones', async () => {
    // A launcher that depends on `fake-dep@^1.0.0` and prints the fake-dep it runs (as codex-acp runs its @openai/codex).
    const pack = async (name: string, version: string, files: Record<string, string>, extra: object = {}) => {
      const dir = await mkdtemp(join(work, `${name}-${version}-`));
      await writeFile(
        join(dir, 'package.json'),
        JSON.stringify({ name, version, license: 'MIT', files: Object.keys(files), ...extra }),
      );
      for (const [file, text] of Object.entries(files)) await writeFile(join(dir, file), text, { mode: 0o755 });
      const packed = await execa('npm', ['pack', dir, '--pack-destination', dir, '--json'], {
        env: { PATH: basePath },
      });
      return join(dir, (JSON.parse(packed.stdout) as [{ filename: string }])[0].filename);
    };
    const dep = (version: string) => pack('fake-dep', version, { 'index.js': `module.exports = '${version}';\n` });
    const [dep1, dep2] = [await dep('1.0.0'), await dep('2.0.0')];
    const launcher = await pack(
      'fake-launcher',
      '1.0.0',
      { 'cli.js': "#!/usr/bin/env node\nconsole.log(`fake-launcher 1.0.0 (fake-dep ${require('fake-dep')})`);\n" },
      { bin: { 'fake-launcher': 'cli.js' }, dependencies: { 'fake-dep': '^1.0.0' } },
    );
    const launcherProgram = (depTarball: string): ProgramInfo => ({
      ...program,
      command: 'fake-launcher',
      npmPackage: 'fake-launcher',
      testedVersion: '1.0.0',
      npmOverrides: { 'fake-dep': `file:${depTarball}` },
    });
    const root = packageCacheRoot(toolCacheDir, 'fake-launcher');
    const runs = async (command: string) => (await execa(command, ['--version'], { env: { PATH: basePath } })).stdout;

    const first = await ensureAgentProgram({
      program: launcherProgram(dep1),
      toolCacheDir,
      env,
      packageSpec: launcher,
      log,
    });
    expect(first).toMatchObject({ source: 'installed', version: '1.0.0' });
    expect(await runs(first.command)).toBe('fake-launcher 1.0.0 (fake-dep 1.0.0)');
    expect(lines).toContainEqual(`installing ${launcher} into ${root} (overriding fake-dep@file:${dep1})`);

    // Other overrides (the adapter now pins another dependency): the cached install is replaced.
    const second = await ensureAgentProgram({
      program: launcherProgram(dep2),
      toolCacheDir,
      env,
      packageSpec: launcher,
      log,
    });
    expect(second).toMatchObject({ source: 'installed', version: '1.0.0', command: first.command });
    expect(await runs(second.command)).toBe('fake-launcher 1.0.0 (fake-dep 2.0.0)');
    expect(JSON.parse(await readFile(join(root, '1.0.0', INSTALL_MARKER), 'utf8'))).toMatchObject({
      overrides: { 'fake-dep': `file:${dep2}` },
    });
    expect(await readdir(root)).toEqual(['1.0.0']);

    // The same overrides: the cache is used and npm is not run.
    const third = await ensureAgentProgram({
      program: launcherProgram(dep2),
      toolCacheDir,
      env,
      packageSpec: launcher,
      npmCommand: join(work, 'no-such-npm'),
    });
    expect(third).toMatchObject({ source: 'cache', command: first.command });
  });

  it('fails with an AgentInstallError when npm cannot be started', async () => {
    const error = await ensureAgentProgram({
      program,
      toolCacheDir,
      env,
      packageSpec: tarball,
      npmCommand: join(work, 'no-such-npm'),
    }).catch((caught: unknown) => caught);
    expect(AgentInstallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/npm install failed/);
  });

  it('stops npm when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await ensureAgentProgram({
      program,
      toolCacheDir,
      env,
      packageSpec: tarball,
      signal: controller.signal,
    }).catch((caught: unknown) => caught);
    expect(AgentInstallError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/cancelled/);
  });
});

describe('findOnPath', () => {
  it('finds executables only, in PATH order, and takes paths as they are', async () => {
    const a = await stubDir('1.0.0');
    const b = await stubDir('2.0.0');
    const plain = await mkdtemp(join(work, 'plain-'));
    await writeFile(join(plain, 'fake-agent-cli'), 'not executable\n', { mode: 0o644 });
    const path = ['', plain, b, a].join(delimiter);
    expect(await findOnPath('fake-agent-cli', path)).toBe(join(b, 'fake-agent-cli'));
    expect(await findOnPath('fake-agent-cli', plain)).toBeUndefined();
    expect(await findOnPath('fake-agent-cli', undefined)).toBeUndefined();
    expect(await findOnPath(join(a, 'fake-agent-cli'), '')).toBe(join(a, 'fake-agent-cli'));
    expect(await findOnPath('./fake-agent-cli', path, { cwd: a })).toBe(join(a, 'fake-agent-cli'));
    expect(await findOnPath('fake-agent-cli', a.replace(/[^/]+$/, ''))).toBeUndefined(); // a directory is not a program
  });
});

describe('pinnedVersions', () => {
  it('maps each adapter with a tested CLI version to it', () => {
    const pinned = pinnedVersions(createBuiltinRegistry());
    expect(pinned.claude).toBe(claudeAdapter().program?.testedVersion);
    expect(pinned.claude).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pinned.demo).toBeUndefined();
    for (const [id, version] of Object.entries(pinned)) {
      expect(semver.valid(version), `${id}: ${version}`).toBe(version);
    }
  });

  it('is empty for a registry without programs', () => {
    expect(pinnedVersions(new AdapterRegistry())).toEqual({});
  });
});
