import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ConfigEntry, listConfigFile } from './config-file.ts';
import { GitError } from './git-error.ts';

/**
 * The repository configuration keys agent-mux's git keeps (lower case, `*` standing for one
 * subsection). Everything else goes: what git would execute (`core.fsmonitor`, `filter.*`,
 * `diff.*.command`, `remote.*.receivepack`, …), what redirects a request (`url.*.insteadOf`,
 * `remote.*.pushurl`, `http.*`), what reads other files (`include.path`, `includeIf.*`), and any
 * key a future git version may add.
 */
const keptKeys = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'core.checkstat',
  'core.trustctime',
  'core.untrackedcache',
  'index.version',
  'index.sparse',
  'extensions.objectformat',
  'extensions.partialclone',
  'remote.*.url',
  'remote.*.fetch',
  'remote.*.promisor',
  'remote.*.partialclonefilter',
  'branch.*.remote',
  'branch.*.merge',
]);

/** Files in a git directory that make git read configuration or a repository from elsewhere. */
const redirectingFiles = ['config.worktree', 'commondir'];

/**
 * Rewrites `<gitDir>/config` to the keys in `keptKeys`, values unchanged, and removes the files
 * that would make git read another configuration or repository (`config.worktree`, `commondir`).
 * The file is parsed by git itself (`git config --file … --no-includes --list -z`), outside any
 * repository, so nothing in it runs. Returns the entries it kept and the keys it dropped.
 */
export async function sanitizeGitConfig(
  gitDir: string,
  /** The file's listing when it was just read (`listConfigFile`), so that it is not read twice. */
  listed?: readonly ConfigEntry[],
): Promise<SanitizedConfig> {
  const file = join(gitDir, 'config');
  let entries = listed;
  if (entries === undefined) {
    const listing = await listConfigFile(file);
    if (!listing.ok) throw new GitError('config', listing.exitCode, `cannot read ${file}: ${listing.error}`);
    entries = listing.entries;
  }
  const kept: [string, string][] = [];
  const dropped: string[] = [];
  for (const [key, value] of entries) {
    if (value !== undefined && keptKeys.has(pattern(key))) kept.push([key, value]);
    else dropped.push(key);
  }
  // Rewritten only when something goes, so a clean configuration keeps its layout and comments.
  if (dropped.length > 0) await writeFile(file, render(kept), { mode: 0o644 });
  // A linked worktree's own git directory legitimately names its common directory.
  const linked = /[\\/]worktrees[\\/][^\\/]+$/.test(gitDir);
  for (const name of redirectingFiles) {
    if (!(linked && name === 'commondir')) await rm(join(gitDir, name), { force: true });
  }
  return { dropped, kept };
}

/** What `sanitizeGitConfig` left in a configuration file, and the keys it dropped. */
export interface SanitizedConfig {
  dropped: string[];
  kept: [string, string][];
}

/** `remote.origin.url` → `remote.*.url`; keys without subsection unchanged. */
function pattern(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first).toLowerCase();
  const name = key.slice(last + 1).toLowerCase();
  return first === last ? `${section}.${name}` : `${section}.*.${name}`;
}

/** Writes `[section "sub"]` blocks; every value quoted and escaped, so no value can start a section. */
function render(entries: readonly [string, string][]): string {
  const sections = new Map<string, string[]>();
  for (const [key, value] of entries) {
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    const section = key.slice(0, first);
    const header = first === last ? `[${section}]` : `[${section} "${quoteValue(key.slice(first + 1, last))}"]`;
    const lines = sections.get(header) ?? [];
    lines.push(`\t${key.slice(last + 1)} = "${quoteValue(value)}"`);
    sections.set(header, lines);
  }
  return [...sections].map(([header, lines]) => `${header}\n${lines.join('\n')}\n`).join('');
}

function quoteValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}
