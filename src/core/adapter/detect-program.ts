import { execa } from 'execa';
import semver from 'semver';
import type { ProgramInfo } from './adapter.ts';

export interface ProgramStatus {
  installed: boolean;
  /** The version the program printed, normalized to semver where possible. */
  version?: string;
  /** Whether `version` is at least the adapter's minimum. */
  meetsMinVersion?: boolean;
  /** Why detection failed (not found, timed out, …). */
  error?: string;
}

/** Pulls the first semver-looking version out of a `--version` output (`hermes-agent 0.1.0`, `1.2.3 (Claude Code)`). */
export function parseVersion(output: string): string | undefined {
  const match = output.match(/\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.-]+)?/);
  return match ? (semver.coerce(match[0], { includePrerelease: true })?.version ?? match[0]) : undefined;
}

/** Runs `<command> <versionArgs>` and compares the version with the minimum. */
export async function detectProgram(program: ProgramInfo, timeoutMs = 5000): Promise<ProgramStatus> {
  const result = await execa(program.command, [...program.versionArgs], {
    reject: false,
    timeout: timeoutMs,
    stdin: 'ignore',
  });
  if (result.failed && result.exitCode === undefined) {
    const notFound = (result.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    return { installed: false, error: notFound ? `${program.command} is not on PATH` : result.shortMessage };
  }
  const version = parseVersion(`${result.stdout}\n${result.stderr}`);
  if (!version) return { installed: true, error: `could not read a version from ${program.command}` };
  return { installed: true, version, meetsMinVersion: semver.gte(version, program.minVersion) };
}
