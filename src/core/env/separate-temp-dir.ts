import { mkdtempSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { isInside } from '../tools/builtin/workspace-path.ts';

/** Variables that name an agent's configuration directory (its HOME and the CLIs' own). */
const CONFIG_DIRS = ['HOME', 'CODEX_HOME', 'CLAUDE_CONFIG_DIR', 'GEMINI_CLI_HOME', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME'];
const TEMP_NAMES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/** A temporary directory made for a run, and how to remove it. */
export interface SeparateTempDir {
  /** The environment with `TMPDIR` (and `TMP`/`TEMP` where set) pointing at it. */
  env: Record<string, string>;
  dir: string;
  remove(): void;
}

/**
 * A temporary directory that does not contain the agent's configuration, when its configuration
 * lies inside its temporary directory (`TMPDIR`, else `/tmp`: a HOME under `/tmp`, a `CODEX_HOME`
 * under `RUNNER_TEMP` given as `TMPDIR`). Codex refuses then to create the helper aliases its
 * sandbox runs (`codex-linux-sandbox`), and every sandboxed command fails with `bwrap: execvp
 * codex-linux-sandbox: No such file or directory`. Undefined when nothing needs to change.
 */
export function separateTempDir(env: Readonly<Record<string, string>>): SeparateTempDir | undefined {
  const temp = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  const configs = CONFIG_DIRS.map((name) => env[name]).filter(
    (value): value is string => value !== undefined && isAbsolute(value),
  );
  if (!configs.some((dir) => isInside(temp, dir))) return undefined;
  // A fresh directory cannot contain a configuration that exists already.
  const dir = mkdtempSync(join(temp, 'agent-mux-tmp-'));
  const next: Record<string, string> = { ...env, TMPDIR: dir };
  for (const name of TEMP_NAMES) if (name !== 'TMPDIR' && env[name] !== undefined) next[name] = dir;
  return { env: next, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
