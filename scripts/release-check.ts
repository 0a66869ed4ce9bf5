/**
 * `node scripts/release-check.ts <X.Y.Z> [--notes <file>]`, at a checkout's root: what the release
 * workflow checks before it tags (.github/workflows/release.yml). Exits 1 naming each problem:
 * - the version is `X.Y.Z` and package.json says the same;
 * - CHANGELOG.md has a section `## [X.Y.Z] - YYYY-MM-DD` that is not empty (its text becomes the
 *   release notes, written to `--notes`);
 * - action.yml runs `dist/index.js` and `dist/post/index.js` on node24, and both exist.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export interface ReleaseCheck {
  problems: string[];
  /** The CHANGELOG section's text (its heading left out), when found. */
  notes?: string;
  /** The major tag the release moves (`v1` for 1.4.2). */
  majorTag?: string;
}

/** Checks a release of `version` of the checkout at `root`. Pure but for reading its files. */
export function checkRelease(root: string, version: string): ReleaseCheck {
  const problems: string[] = [];
  const semver = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!semver) problems.push(`version "${version}" is not X.Y.Z (e.g. 1.0.0, no leading v)`);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  if (pkg.version !== version) {
    problems.push(
      `package.json says version ${pkg.version ?? '(none)'}, not ${version}: bump it in the release commit`,
    );
  }
  const notes = changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
  if (notes === undefined) problems.push(`CHANGELOG.md has no section "## [${version}] - YYYY-MM-DD"`);
  else if (notes.trim() === '') problems.push(`CHANGELOG.md's section for ${version} is empty`);
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { runs?: Record<string, string> };
  if (action.runs?.using !== 'node24') problems.push(`action.yml runs.using is ${action.runs?.using}, not node24`);
  for (const key of ['main', 'post']) {
    const file = action.runs?.[key];
    if (!file || !existsSync(join(root, file)))
      problems.push(`action.yml runs.${key} (${file ?? 'unset'}) does not exist`);
  }
  return {
    problems,
    ...(notes === undefined ? {} : { notes: notes.trim() }),
    ...(semver ? { majorTag: `v${semver[1]}` } : {}),
  };
}

/** The text under `## [version] - date` up to the next `## ` heading, or undefined. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const escaped = version.replace(/\./g, '\\.');
  const start = lines.findIndex((line) => new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}\\s*$`).test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [version, flag, out] = process.argv.slice(2);
  if (!version || (flag !== undefined && (flag !== '--notes' || !out))) {
    process.stderr.write('usage: node scripts/release-check.ts <X.Y.Z> [--notes <file>]\n');
    process.exit(2);
  }
  // The checkout it is run in (the release workflow runs it at the repository's root).
  const result = checkRelease(process.cwd(), version);
  for (const problem of result.problems) process.stderr.write(`release-check: ${problem}\n`);
  if (result.problems.length > 0) process.exit(1);
  if (out) writeFileSync(out, `${result.notes ?? ''}\n`);
  process.stdout.write(`release-check: ${version} is ready (moves ${result.majorTag})\n`);
}
