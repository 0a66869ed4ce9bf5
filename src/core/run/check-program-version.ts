import semver from 'semver';
import { detectProgram, type ProgramStatus, parseVersion } from '../adapter/detect-program.ts';
import type { ProgramInfo } from '../adapter/index.ts';
import type { EventDraft } from '../events/index.ts';

/** One `--version` per program and process: runs after the first do not pay for it again. */
const seen = new Map<string, Promise<ProgramStatus>>();

/**
 * A warning when the installed program is older than the adapter's minimum; the run goes on.
 * Nothing when it is not installed (the spawn reports that) or its version can't be read.
 * With `known` (the version the caller found or installed) nothing is run.
 */
export async function checkProgramVersion(program: ProgramInfo, known?: string): Promise<EventDraft | undefined> {
  let status = known === undefined ? seen.get(program.command) : Promise.resolve(knownStatus(program, known));
  if (!status) {
    status = detectProgram(program).catch((error: unknown) => ({ installed: false, error: String(error) }));
    seen.set(program.command, status);
  }
  const { installed, version, meetsMinVersion } = await status;
  if (!installed || !version || meetsMinVersion !== false) return undefined;
  return {
    type: 'error',
    code: 'version_below_minimum',
    message: `${program.command} ${version} is older than ${program.minVersion}, the oldest version this adapter is tested with; the run goes on`,
    recoverable: true,
  };
}

function knownStatus(program: ProgramInfo, version: string): ProgramStatus {
  const parsed = parseVersion(version);
  if (parsed === undefined) return { installed: true, error: `could not read a version from ${version}` };
  return { installed: true, version: parsed, meetsMinVersion: semver.gte(parsed, program.minVersion) };
}
