import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
// The sources rather than dist/, which the coordinator rebuilds.
// node-pty is an optional dependency: without it there is no terminal to test with.
const pty = await import('node-pty').catch(() => undefined);
const env = { ...process.env, AGENT_MUX_CLI: join(root, 'src/cli/index.ts'), NO_COLOR: '1' };

/** `npm run demo` without a terminal: standard input is not a TTY (execFile gives a pipe). */
async function demo(args: string[] = []) {
  const child = run(process.execPath, [join(root, 'scripts/demo.ts'), ...args], { cwd: root, env });
  child.child.stdin?.end();
  const { stdout, stderr } = await child;
  const last = stdout.trim().split('\n').at(-1) ?? '';
  const workspace = /; workspace: (\S+)$/.exec(last)?.[1] ?? '';
  return { stdout, stderr, last, workspace };
}

describe('npm run demo (scripts/demo.ts)', () => {
  it('with no terminal approves automatically, says so, and ends with what it did and where', async () => {
    const { stdout, stderr, last, workspace } = await demo();
    expect(stderr).toContain('No terminal to answer approvals at: the demo approves them automatically');
    expect(stdout).toContain('approved (once) by --approve all');
    expect(last).toBe(
      `demo: the agent fixed the typo in README.md ("projcet" → "project"), approved automatically because there was no terminal; workspace: ${workspace}`,
    );
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toContain('This project shows');
  });

  it('an --approve of the user wins: denied, it says nothing changed', async () => {
    const { stderr, last, workspace } = await demo(['--approve', 'none']);
    expect(stderr).not.toContain('approves them automatically');
    expect(last).toBe(`demo: the agent changed nothing (the write was not approved); workspace: ${workspace}`);
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toContain('projcet');
  });

  it.skipIf(!pty)('at a terminal it asks, and writes once the user says yes', async () => {
    if (!pty) return;
    const term = pty.spawn(process.execPath, [join(root, 'scripts/demo.ts')], {
      cwd: root,
      env,
      cols: 200,
      rows: 50,
    });
    let screen = '';
    const exited = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    let answered = false;
    term.onData((data) => {
      screen += data;
      if (!answered && screen.includes('Allow? [y]es once')) {
        answered = true;
        term.write('y\r');
      }
    });
    expect(await exited).toBe(0);
    expect(answered).toBe(true);
    expect(screen).not.toContain('approves them automatically');
    const workspace = /; workspace: (\S+)/.exec(screen)?.[1] ?? '';
    expect(screen).toContain('demo: the agent fixed the typo in README.md ("projcet" → "project"); workspace:');
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).toContain('This project shows');
  });
});
