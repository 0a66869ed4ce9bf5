import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** The bundles `npm run bundle` makes: entry → committed output, built by its package.json script. */
const bundles = [
  { entry: 'src/cli/index.ts', committed: 'dist/cli/index.js', script: 'bundle:cli' },
  { entry: 'src/action/index.ts', committed: 'dist/index.js', script: 'bundle:action' },
  { entry: 'src/action/post-entry.ts', committed: 'dist/post/index.js', script: 'bundle:post' },
];
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** The script's `ncc build …` arguments, writing to `out` instead of dist/. */
function nccArgs(script: string, out: string): string[] {
  const args = (scripts[script] ?? '').trim().split(/\s+/);
  if (args[0] !== 'ncc') throw new Error(`${script} is not an ncc build: ${scripts[script]}`);
  const rest = args.slice(1);
  const o = rest.indexOf('-o');
  if (o < 0) throw new Error(`${script} names no -o`);
  rest[o + 1] = out;
  return rest;
}

// The committed bundles must be what the sources build to (the check-dist job, as a test).
describe('dist/', () => {
  for (const { entry, committed, script } of bundles) {
    it(`${committed} matches a fresh ncc build of ${entry}`, () => {
      const out = mkdtempSync(join(tmpdir(), 'agent-mux-dist-'));
      execFileSync(
        process.execPath,
        [join(root, 'node_modules/@vercel/ncc/dist/ncc/cli.js'), ...nccArgs(script, out), '-q'],
        { cwd: root, stdio: 'pipe' },
      );
      try {
        // The entry and every chunk it loads on demand (`import()`: the MCP and ACP SDKs, the Actions cache).
        const dir = dirname(join(root, committed));
        const chunks = (d: string) =>
          readdirSync(d)
            .filter((name) => name.endsWith('.js'))
            .sort();
        expect(chunks(dir), `${dirname(committed)}/ holds other chunks than a fresh build`).toEqual(chunks(out));
        for (const name of chunks(out)) {
          const fresh = readFileSync(join(out, name), 'utf8');
          const current = readFileSync(join(dir, name), 'utf8');
          expect(
            fresh === current,
            `${dirname(committed)}/${name} is stale: run \`npm run bundle\` and commit dist/`,
          ).toBe(true);
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }, 180_000);

    it(`${committed} loads node-pty lazily, never at start-up`, () => {
      const bundle = readFileSync(join(root, committed), 'utf8');
      expect(bundle).not.toMatch(/^import .* from "node-pty";$/m);
      if (!committed.includes('post')) expect(bundle).toContain("import(/* webpackIgnore: true */ 'node-pty')");
    });
  }
});
