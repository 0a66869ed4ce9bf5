import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** The bundles `npm run bundle` makes: entry → committed output. */
const bundles = [
  { entry: 'src/cli/index.ts', committed: 'dist/cli/index.js' },
  { entry: 'src/action/index.ts', committed: 'dist/index.js' },
  { entry: 'src/action/post-entry.ts', committed: 'dist/post/index.js' },
];

// The committed bundles must be what the sources build to (the check-dist job, as a test).
describe('dist/', () => {
  for (const { entry, committed } of bundles) {
    it(`${committed} matches a fresh ncc build of ${entry}`, () => {
      const out = mkdtempSync(join(tmpdir(), 'agent-mux-dist-'));
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules/@vercel/ncc/dist/ncc/cli.js'),
          'build',
          entry,
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
      const current = readFileSync(join(root, committed), 'utf8');
      expect(fresh === current, `${committed} is stale: run \`npm run bundle\` and commit dist/`).toBe(true);
    }, 180_000);

    it(`${committed} loads node-pty lazily, never at start-up`, () => {
      const bundle = readFileSync(join(root, committed), 'utf8');
      expect(bundle).not.toMatch(/^import .* from "node-pty";$/m);
      if (!committed.includes('post')) expect(bundle).toContain("import(/* webpackIgnore: true */ 'node-pty')");
    });
  }
});
