/**
 * Refreshes test/fixtures/github-openapi/api.github.com.json.gz, GitHub's published REST
 * description that the fake GitHub checks every request against, from the npm package
 * `@octokit/openapi` (its `generated/api.github.com.json`). The package is 385 MB installed, almost
 * all of it descriptions of other GitHub products, so only this one file is kept, gzipped (~0.9 MB).
 *
 *   node scripts/update-github-openapi.ts [version]     (default: latest)
 *
 * It downloads the package's tarball with `npm pack` into a temporary directory, takes the one file
 * out with tar, and writes it with the version and SHA-256 into the fixture's VERSION file.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const version = process.argv[2] ?? 'latest';
const target = new URL('../test/fixtures/github-openapi/', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'agent-mux-openapi-'));
try {
  execFileSync('npm', ['pack', `@octokit/openapi@${version}`, '--silent', '--pack-destination', dir], {
    stdio: 'inherit',
  });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error('npm pack wrote no tarball');
  const member = 'package/generated/api.github.com.json';
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir, member, 'package/package.json'], { stdio: 'inherit' });
  const text = readFileSync(join(dir, member));
  const resolved = (JSON.parse(readFileSync(join(dir, 'package', 'package.json'), 'utf8')) as { version: string })
    .version;
  const sha256 = createHash('sha256').update(text).digest('hex');
  writeFileSync(join(target, 'api.github.com.json.gz'), gzipSync(text, { level: 9 }));
  writeFileSync(
    join(target, 'VERSION'),
    `@octokit/openapi ${resolved} generated/api.github.com.json sha256 ${sha256}\n`,
  );
  console.log(`wrote api.github.com.json.gz from @octokit/openapi ${resolved} (sha256 ${sha256})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
