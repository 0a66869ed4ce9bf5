import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

// The committed bundle must be what the sources build to (the check-dist job, as a test).
describe('dist/', () => {
  it('matches a fresh ncc build of the sources', () => {
    const out = mkdtempSync(join(tmpdir(), 'agent-mux-dist-'));
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/@vercel/ncc/dist/ncc/cli.js'),
        'build',
        'src/cli/index.ts',
        '-o',
        out,
        '--source-map',
        '--license',
        'licenses.txt',
        '-e',
        'node-pty',
        '-q',
      ],
      { cwd: root, stdio: 'pipe' },
    );
    const fresh = readFileSync(join(out, 'index.js'), 'utf8');
    const committed = readFileSync(join(root, 'dist/cli/index.js'), 'utf8');
    expect(fresh === committed, 'dist/cli/index.js is stale: run `npm run bundle` and commit dist/').toBe(true);
  }, 120_000);

  it('loads node-pty lazily, never at start-up', () => {
    const bundle = readFileSync(join(root, 'dist/cli/index.js'), 'utf8');
    expect(bundle).not.toMatch(/^import .* from "node-pty";$/m);
    expect(bundle).toContain("import(/* webpackIgnore: true */ 'node-pty')");
  });
});
