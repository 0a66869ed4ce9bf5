import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the package in a checkout (issue 33.15)', () => {
  it("import('agent-mux') works after npm ci: prepare built lib/", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('agent-mux'); console.log(typeof m.startRun, typeof m.AdapterRegistry)",
      ],
      { cwd: root },
    );
    expect(stdout.trim()).toBe('function function');
  });

  it('prepare without TypeScript (a production install) builds nothing, says so, and succeeds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-mux-prepare-'));
    dirs.push(dir);
    cpSync(join(root, 'scripts/prepare.ts'), join(dir, 'scripts/prepare.ts'));
    const { stdout } = await run(process.execPath, [join(dir, 'scripts/prepare.ts')], { cwd: dir });
    expect(stdout).toBe('agent-mux prepare: TypeScript is not installed (production install): lib/ is not built\n');
  });
});
