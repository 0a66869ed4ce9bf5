import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { changelogSection, checkRelease } from '../../scripts/release-check.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout's release files, with package.json at `version` and `changelog` as CHANGELOG.md. */
function checkout(version: string, changelog: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-release-'));
  dirs.push(dir);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version }));
  writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
  cpSync(join(root, 'action.yml'), join(dir, 'action.yml'));
  cpSync(join(root, 'dist/index.js'), join(dir, 'dist/index.js'), { recursive: true });
  cpSync(join(root, 'dist/post/index.js'), join(dir, 'dist/post/index.js'), { recursive: true });
  return dir;
}

const CHANGELOG =
  '# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-12-01\n\n### Added\n- Review mode.\n\n## [1.1.0] - 2026-11-01\n- Older.\n';

describe('scripts/release-check.ts (issue 33.9: a release users can `uses:`)', () => {
  it('a version with its package.json and CHANGELOG section: ready, notes from the section, major tag v1', () => {
    const result = checkRelease(checkout('1.2.0', CHANGELOG), '1.2.0');
    expect(result).toEqual({ problems: [], notes: '### Added\n- Review mode.', majorTag: 'v1' });
  });

  it('names every problem: not X.Y.Z, package.json elsewhere, no section', () => {
    const { problems } = checkRelease(checkout('1.1.0', CHANGELOG), 'v1.3');
    expect(problems).toEqual([
      'version "v1.3" is not X.Y.Z (e.g. 1.0.0, no leading v)',
      'package.json says version 1.1.0, not v1.3: bump it in the release commit',
      'CHANGELOG.md has no section "## [v1.3] - YYYY-MM-DD"',
    ]);
    expect(checkRelease(checkout('2.0.0', '## [2.0.0] - 2027-01-01\n\n'), '2.0.0').problems).toEqual([
      "CHANGELOG.md's section for 2.0.0 is empty",
    ]);
  });

  it('the repository as it is has not been released: its CHANGELOG has only Unreleased, and says which ref to use', () => {
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    expect(changelogSection(changelog, '0.1.0')).toBeUndefined();
    expect(changelog).toContain('agent-mux/agent-mux@main');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('agent-mux/agent-mux@main');
  });

  it('as a command: exit 1 with the problems, exit 0 and the notes file when ready', async () => {
    const dir = checkout('1.2.0', CHANGELOG);
    const notes = join(dir, 'notes.md');
    const ok = await run(process.execPath, [join(root, 'scripts/release-check.ts'), '0.0.0'], { cwd: dir }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(ok).toMatchObject({ code: 1, stderr: expect.stringContaining('release-check: package.json says version') });
    const ready = await run(process.execPath, [join(root, 'scripts/release-check.ts'), '1.2.0', '--notes', notes], {
      cwd: dir,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(ready).toMatchObject({ stdout: 'release-check: 1.2.0 is ready (moves v1)\n' });
    expect(readFileSync(notes, 'utf8')).toBe('### Added\n- Review mode.\n');
  });

  it('the release workflow runs the check, compares dist/, and moves the major tag', () => {
    const workflow = parse(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8')) as {
      permissions: Record<string, string>;
      jobs: { release: { steps: { run?: string }[] } };
    };
    expect(workflow.permissions).toEqual({ contents: 'write' });
    const script = workflow.jobs.release.steps.map((step) => step.run ?? '').join('\n');
    expect(script).toContain('node scripts/release-check.ts "$VERSION"');
    expect(script).toContain('npm run bundle');
    expect(script).toContain('git status --porcelain dist');
    expect(script).toContain('git push --force origin "refs/tags/$major"');
  });
});
