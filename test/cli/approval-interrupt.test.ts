import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPty, spawnCli } from './pty-cli.ts';

const pty = await loadPty();
const README = '# Demo project\n\nThis projcet shows how agent-mux runs an agent.\n';

let workspace: string | undefined;
afterEach(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
  workspace = undefined;
});

async function demoWorkspace(): Promise<string> {
  workspace = await mkdtemp(join(tmpdir(), 'agent-mux-ctrl-c-'));
  await writeFile(join(workspace, 'README.md'), README);
  return workspace;
}

describe.skipIf(pty === undefined)('agent-mux run at a terminal: the approval prompt', () => {
  it('Ctrl-C at the prompt aborts the run: exit 130, nothing written', async () => {
    if (!pty) return;
    const cwd = await demoWorkspace();
    const cli = spawnCli(pty, ['run', '--adapter', 'demo', '--cwd', cwd, 'fix the typo in README.md'], { cwd });
    await cli.waitFor('Allow? [y]es once, [a]lways, [n]o:');
    cli.write('\u0003');
    expect(await cli.exited).toBe(130);
    expect(cli.screen()).toContain('SIGINT: stopping the agent');
    expect(cli.screen()).not.toContain('✔ completed');
    expect(await readFile(join(cwd, 'README.md'), 'utf8')).toBe(README);
    expect(await readdir(cwd)).toEqual(['README.md']);
  }, 30_000);

  it('the prompt shows the approval id; y approves and the run completes with the fix', async () => {
    if (!pty) return;
    const cwd = await demoWorkspace();
    const cli = spawnCli(pty, ['run', '--adapter', 'demo', '--cwd', cwd, 'fix the typo in README.md'], { cwd });
    await cli.waitFor('Allow? [y]es once, [a]lways, [n]o:');
    const id = /\? approval (\S+): write_file/.exec(cli.screen())?.[1];
    expect(id).toMatch(/^[0-9a-z]{6,12}$/);
    cli.write('y\r');
    expect(await cli.exited).toBe(0);
    expect(cli.screen()).toContain('✔ completed');
    expect(await readFile(join(cwd, 'README.md'), 'utf8')).toContain('This project shows');
  }, 30_000);
});
