import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import semver from 'semver';
import type { ProgramInfo } from '../core/adapter/adapter.ts';
import { parseVersion } from '../core/adapter/detect-program.ts';
import { findOnPath } from '../core/host/find-on-path.ts';
import type { AdapterRegistry } from '../core/registry/adapter-registry.ts';
import { AgentInstallError } from './install-agent-error.ts';
import {
  bestCachedInstall,
  binDirOf,
  binName,
  type CachedInstall,
  cachedInstall,
  packageCacheRoot,
  readInstallMarker,
  removeLeftovers,
  writeInstallMarker,
} from './install-cache.ts';

export { AgentInstallError } from './install-agent-error.ts';

/** Where the agent's program was found, and how long it took to make sure of it. */
export interface InstallResult {
  /** Absolute path of the program to run (empty for `none`). */
  command: string;
  /** The directory holding it: prepend it to `PATH` so the agent finds itself (empty for `none`). */
  binDir: string;
  /** The version the program reported (or was installed at); undefined for `none` or when it printed none. */
  version: string | undefined;
  /** `path`: already installed; `cache`: installed by an earlier job into the tool cache; `installed`: just now; `none`: no program needed. */
  source: 'path' | 'cache' | 'installed' | 'none';
  /** How long ensuring took, in milliseconds. */
  ms: number;
}

export interface EnsureAgentProgramInput {
  /** The adapter's program; undefined (session adapters) gives `{ source: 'none' }`. */
  program: ProgramInfo | undefined;
  /**
   * The version to run (the `agent-version` input): an exact version, a semver range or a dist-tag
   * (`latest`: any version already on `PATH` will do). Default: `program.testedVersion`, else `latest`.
   */
  version?: string;
  /** The runner's `RUNNER_TOOL_CACHE` (or a temp dir); installs go under `<it>/agent-mux/`. */
  toolCacheDir: string;
  /**
   * The environment the version check and npm run with, as it is (not merged with `process.env`);
   * `PATH` is searched for the program. Pass the runner's `process.env`.
   */
  env: Record<string, string | undefined>;
  /** The npm executable. Default `npm`. */
  npmCommand?: string;
  /** npm registry URL (`--registry`). Default: npm's own configuration. */
  registry?: string;
  /**
   * What to give `npm install` instead of `<npmPackage>@<version>` (a tarball path, a `file:` spec).
   * With it, a version that is not exact is not resolved against the registry nor looked up in the cache.
   */
  packageSpec?: string;
  /** Receives one line per step (found on PATH, cache hit, installed in N s). */
  log?: (line: string) => void;
  /** Aborts the version checks and npm. */
  signal?: AbortSignal;
  /** Limit for `npm install`. Default 10 minutes. */
  timeoutMs?: number;
}

const DEFAULT_INSTALL_TIMEOUT_MS = 10 * 60_000;
const VERSION_TIMEOUT_MS = 30_000;
const STDERR_TAIL_CHARS = 2000;

/** Installs under way in this process, by package cache root: one at a time per package. */
const inFlight = new Map<string, Promise<unknown>>();

/**
 * Makes sure the agent's program is runnable at the requested version: found on `PATH`, found in
 * the tool cache, or installed from npm into the tool cache (into `<dir>.partial-<pid>`, checked by
 * running `versionArgs`, marked complete, then renamed into place, so a half-finished install is
 * never used). Throws `AgentInstallError` when it cannot.
 */
export async function ensureAgentProgram(input: EnsureAgentProgramInput): Promise<InstallResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const { program } = input;
  if (!program) return { command: '', binDir: '', version: undefined, source: 'none', ms: elapsed() };
  const log = input.log ?? (() => undefined);
  const env = definedEnv(input.env);
  const wanted = parseWanted(input.version ?? program.testedVersion ?? 'latest');

  const onPath = await findOnPath(program.command, env.PATH);
  if (onPath) {
    const check = await runVersion(onPath, program, env, input.signal);
    if (check.ok && check.version !== undefined && satisfiesOnPath(check.version, wanted)) {
      log(`using ${program.command} ${check.version} from PATH (${onPath})`);
      return result(onPath, check.version, 'path', elapsed());
    }
    if (!program.npmPackage) {
      log(
        `using ${program.command} ${check.version ?? '(unknown version)'} from PATH (${onPath}): ` +
          `${wanted.text} was asked for, but ${program.command} cannot be installed from npm`,
      );
      return result(onPath, check.version, 'path', elapsed());
    }
    log(`${program.command} on PATH is ${check.version ?? 'of unknown version'}, not ${wanted.text}`);
  }
  const npmPackage = program.npmPackage;
  if (!npmPackage) throw notOnNpm(program);

  const root = packageCacheRoot(input.toolCacheDir, npmPackage);
  return serialized(root, async () => {
    let exact = wanted.kind === 'exact' ? wanted.version : undefined;
    if (exact === undefined && input.packageSpec === undefined) {
      exact = await resolveVersion(npmPackage, wanted, input, env).catch(async (error: unknown) => {
        const cached = await bestCachedInstall(root, wanted.kind === 'range' ? wanted.range : '*', program.command);
        if (!cached) {
          throw new AgentInstallError(
            program.command,
            `could not resolve ${npmPackage}@${wanted.text}: ${(error as Error).message}`,
            { cause: error, npmPackage },
          );
        }
        log(
          `could not resolve ${npmPackage}@${wanted.text} (${(error as Error).message}); using the cached ${cached.version}`,
        );
        return cached.version;
      });
    }
    if (exact !== undefined) {
      const cached = await cachedInstall(root, exact, program.command);
      if (cached && (await sameOverrides(cached.dir, program))) {
        log(`using ${npmPackage}@${cached.version} from the tool cache (${cached.dir})`);
        return result(cached.bin, cached.version, 'cache', elapsed());
      }
    }
    const installed = await install(program, npmPackage, root, exact, wanted, input, env, log);
    log(`installed ${npmPackage}@${installed.version} in ${(elapsed() / 1000).toFixed(1)} s`);
    return result(installed.bin, installed.version, 'installed', elapsed());
  });
}

/** Adapter id → the CLI version it was tested with (recorded live), for the docs and the `agent-version` default. */
export function pinnedVersions(registry: AdapterRegistry): Record<string, string> {
  const pinned: Record<string, string> = {};
  for (const adapter of registry.list()) {
    const version = adapter.program?.testedVersion;
    if (version) pinned[adapter.id] = version;
  }
  return pinned;
}

type Wanted =
  | { kind: 'exact'; version: string; text: string }
  | { kind: 'range'; range: string; text: string }
  | { kind: 'tag'; tag: string; text: string };

function parseWanted(text: string): Wanted {
  const trimmed = text.trim();
  const exact = semver.valid(trimmed);
  if (exact) return { kind: 'exact', version: exact, text: trimmed };
  const range = semver.validRange(trimmed);
  if (range) return { kind: 'range', range, text: trimmed };
  return { kind: 'tag', tag: trimmed, text: trimmed };
}

/** An exact version must match; a range must be satisfied; only the `latest` tag accepts any version. */
function satisfiesOnPath(version: string, wanted: Wanted): boolean {
  if (wanted.kind === 'exact') return semver.valid(version) !== null && semver.eq(version, wanted.version);
  if (wanted.kind === 'range') return semver.satisfies(version, wanted.range, { includePrerelease: true });
  return wanted.tag === 'latest';
}

function result(bin: string, version: string | undefined, source: InstallResult['source'], ms: number): InstallResult {
  return { command: bin, binDir: dirname(bin), version, source, ms };
}

async function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  inFlight.set(key, next);
  try {
    return await next;
  } finally {
    if (inFlight.get(key) === next) inFlight.delete(key);
  }
}

interface VersionCheck {
  ok: boolean;
  version: string | undefined;
  output: string;
}

async function runVersion(
  bin: string,
  program: ProgramInfo,
  env: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<VersionCheck> {
  const run = await execa(bin, [...program.versionArgs], {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: VERSION_TIMEOUT_MS,
    ...(signal ? { cancelSignal: signal } : {}),
  });
  const output = `${run.stdout}\n${run.stderr}`;
  return { ok: !run.failed && run.exitCode === 0, version: parseVersion(output), output };
}

function npmArgs(input: EnsureAgentProgramInput): string[] {
  return input.registry ? ['--registry', input.registry] : [];
}

/** Asks the registry which version a range or dist-tag means now (`npm view <pkg>@<it> version`). */
async function resolveVersion(
  npmPackage: string,
  wanted: Wanted,
  input: EnsureAgentProgramInput,
  env: Record<string, string>,
): Promise<string> {
  const spec = `${npmPackage}@${wanted.kind === 'range' ? wanted.range : wanted.text}`;
  const run = await execa(input.npmCommand ?? 'npm', ['view', spec, 'version', '--json', ...npmArgs(input)], {
    env: npmEnv(env),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: VERSION_TIMEOUT_MS * 2,
    ...(input.signal ? { cancelSignal: input.signal } : {}),
  });
  if (run.failed) throw new Error(tail(run.stderr) || run.shortMessage);
  let parsed: unknown;
  try {
    parsed = JSON.parse(run.stdout);
  } catch {
    parsed = undefined;
  }
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter(
    (v): v is string => typeof v === 'string' && semver.valid(v) !== null,
  );
  const best = versions.sort(semver.rcompare)[0];
  if (!best) throw new Error(`npm view ${spec} named no version`);
  return best;
}

async function install(
  program: ProgramInfo,
  npmPackage: string,
  root: string,
  exact: string | undefined,
  wanted: Wanted,
  input: EnsureAgentProgramInput,
  env: Record<string, string>,
  log: (line: string) => void,
): Promise<CachedInstall> {
  const spec = input.packageSpec ?? `${npmPackage}@${exact ?? wanted.text}`;
  const fail = (message: string, extra: { cause?: unknown; stderrTail?: string } = {}): AgentInstallError =>
    new AgentInstallError(program.command, `could not install ${spec}: ${message}`, { npmPackage, ...extra });

  await mkdir(root, { recursive: true });
  for (const name of await removeLeftovers(root)) log(`removed the unfinished install ${join(root, name)}`);
  const partial = join(root, `${exact ?? safeName(wanted.text)}.partial-${process.pid}`);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const overrides = program.npmOverrides;
    if (overrides && Object.keys(overrides).length > 0) {
      // npm applies overrides from the root package.json only: the install directory's.
      await writeFile(join(partial, 'package.json'), `${JSON.stringify({ private: true, overrides }, null, 2)}\n`);
    }
    log(`installing ${spec} into ${root}${overridesText(overrides)}`);
    const run = await execa(
      input.npmCommand ?? 'npm',
      ['install', '--prefix', partial, '--no-audit', '--no-fund', '--omit=dev', ...npmArgs(input), spec],
      {
        cwd: partial,
        env: npmEnv(env),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        all: true,
        timeout: input.timeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
        ...(input.signal ? { cancelSignal: input.signal } : {}),
      },
    );
    if (run.failed) {
      const stderrTail = tail(run.stderr) || tail(run.all);
      const why = run.isCanceled ? 'cancelled' : run.timedOut ? 'timed out' : run.shortMessage;
      throw fail(`npm install failed (${why})${stderrTail ? `:\n${stderrTail}` : ''}`, { cause: run, stderrTail });
    }

    const bin = join(binDirOf(partial), binName(program.command));
    if (!existsSync(bin)) throw fail(`the package has no executable named ${binName(program.command)}`);
    const packageVersion = await installedPackageVersion(partial, npmPackage);
    if (exact !== undefined && packageVersion !== undefined && packageVersion !== exact) {
      throw fail(`npm installed version ${packageVersion}, not ${exact}`);
    }
    const check = await runVersion(bin, program, env, input.signal);
    if (!check.ok) {
      const stderrTail = tail(check.output);
      throw fail(
        `the installed ${program.command} did not run ${[program.command, ...program.versionArgs].join(' ')}`,
        {
          stderrTail,
        },
      );
    }
    const version = packageVersion ?? check.version ?? exact;
    if (version === undefined || semver.valid(version) === null) {
      throw fail(
        `could not tell which version was installed (${program.command} printed ${JSON.stringify(check.output.trim())})`,
      );
    }
    if (wanted.kind === 'range' && !semver.satisfies(version, wanted.range, { includePrerelease: true })) {
      throw fail(`npm installed version ${version}, which is not in ${wanted.text}`);
    }
    await writeInstallMarker(partial, {
      npmPackage,
      version,
      spec,
      installedAt: new Date().toISOString(),
      ...(overrides ? { overrides: { ...overrides } } : {}),
    });
    const dir = join(root, version);
    await publish(partial, dir, program);
    return { dir, version, bin: join(binDirOf(dir), binName(program.command)) };
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/**
 * Renames the finished install into place; when another process got there first with a complete one
 * (made with the same overrides), keeps that.
 */
async function publish(partial: string, dir: string, program: ProgramInfo): Promise<void> {
  try {
    await rename(partial, dir);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw error;
  }
  if ((await readInstallMarker(dir)) && (await sameOverrides(dir, program))) return;
  await rm(dir, { recursive: true, force: true });
  await rename(partial, dir);
}

async function installedPackageVersion(prefix: string, npmPackage: string): Promise<string | undefined> {
  try {
    const manifest: unknown = JSON.parse(
      await readFile(join(prefix, 'node_modules', npmPackage, 'package.json'), 'utf8'),
    );
    const version = (manifest as { version?: unknown } | null)?.version;
    return typeof version === 'string' && semver.valid(version) !== null ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a cached install was made with the program's npm overrides (one without them is installed again). */
async function sameOverrides(dir: string, program: ProgramInfo): Promise<boolean> {
  const marker = await readInstallMarker(dir);
  return JSON.stringify(sortedEntries(marker?.overrides)) === JSON.stringify(sortedEntries(program.npmOverrides));
}

function sortedEntries(record: Readonly<Record<string, string>> | undefined): [string, string][] {
  return Object.entries(record ?? {}).sort(([a], [b]) => a.localeCompare(b));
}

function overridesText(overrides: Readonly<Record<string, string>> | undefined): string {
  const entries = sortedEntries(overrides);
  return entries.length ? ` (overriding ${entries.map(([name, spec]) => `${name}@${spec}`).join(', ')})` : '';
}

function notOnNpm(program: ProgramInfo): AgentInstallError {
  const methods = program.install.map(
    (method) =>
      `  ${method.type}: ${method.command}` +
      (method.platforms?.length ? ` (${method.platforms.join(', ')})` : '') +
      (method.notes ? ` — ${method.notes}` : ''),
  );
  return new AgentInstallError(
    program.command,
    `${program.command} is not on PATH and is not published on npm, so it cannot be installed here; ` +
      `install it in an earlier step of the job${methods.length ? `:\n${methods.join('\n')}` : ''}`,
  );
}

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function npmEnv(env: Record<string, string>): Record<string, string> {
  return { ...env, npm_config_update_notifier: 'false', npm_config_loglevel: env.npm_config_loglevel ?? 'warn' };
}

function safeName(text: string): string {
  return text.replace(/[^0-9A-Za-z.-]/g, '_') || 'latest';
}

function tail(text: string | undefined): string {
  const trimmed = (text ?? '').trim();
  return trimmed.length > STDERR_TAIL_CHARS ? `…${trimmed.slice(-STDERR_TAIL_CHARS)}` : trimmed;
}
