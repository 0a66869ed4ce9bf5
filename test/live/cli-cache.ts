import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { LiveSpec } from './live-spec.ts';

/** Where CLIs are installed for recording and live tests: a cache, never a project dependency. */
export const cliCacheRoot = process.env.AGENT_MUX_CLI_CACHE ?? join(homedir(), '.cache', 'agent-mux', 'clis');

/** Where a pinned package is installed. */
export function cliDir(spec: Pick<LiveSpec, 'npmPackage' | 'version'>): string {
  return join(cliCacheRoot, `${spec.npmPackage.replace(/^@/, '').replace(/[/@]/g, '-')}-${spec.version}`);
}

/** Installs the spec's CLI at its pinned version if missing; returns the executable's path. */
export async function installCli(spec: LiveSpec, log: (line: string) => void = () => undefined): Promise<string> {
  if (spec.locate) return spec.locate();
  const dir = cliDir(spec);
  const bin = join(dir, 'node_modules', '.bin', spec.binName);
  if (existsSync(bin)) return bin;
  log(`installing ${spec.npmPackage}@${spec.version} into ${dir}`);
  const allow = spec.allowScripts?.length ? [`--allow-scripts=${spec.allowScripts.join(',')}`] : [];
  const result = await execa(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-audit',
      '--no-fund',
      '--no-save',
      ...allow,
      `${spec.npmPackage}@${spec.version}`,
    ],
    { reject: false, all: true, timeout: 15 * 60_000 },
  );
  if (result.exitCode !== 0 || !existsSync(bin)) {
    throw new Error(`could not install ${spec.npmPackage}@${spec.version}: ${String(result.all ?? '').slice(-2000)}`);
  }
  return bin;
}
