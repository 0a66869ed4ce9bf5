import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import { separateTempDir } from '../../../src/core/env/separate-temp-dir.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { fenceCommand } from '../../../src/core/sandbox/index.ts';
import { collectRun } from '../../support/collect-run.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-sep-'));
  dirs.push(dir);
  return dir;
};

describe('separateTempDir (issue 31: Codex refuses its sandbox helpers under its temp dir)', () => {
  it('a HOME inside the temp dir: a fresh TMPDIR (and TMP/TEMP) that does not contain it, removed after', () => {
    const home = join(scratch(), 'home');
    const separated = separateTempDir({ HOME: home, TMP: '/tmp' });
    expect(separated).toBeDefined();
    const dir = separated?.dir as string;
    expect(dir.startsWith('/tmp/agent-mux-tmp-')).toBe(true);
    expect(home.startsWith(dir)).toBe(false);
    expect(separated?.env).toMatchObject({ HOME: home, TMPDIR: dir, TMP: dir });
    expect(separated?.env.TEMP).toBeUndefined();
    separated?.remove();
    expect(existsSync(dir)).toBe(false);
  });

  it('a CODEX_HOME inside a TMPDIR given (RUNNER_TEMP): moved out of it', () => {
    const runnerTemp = scratch();
    const separated = separateTempDir({
      HOME: '/home/runner',
      CODEX_HOME: join(runnerTemp, 'codex'),
      TMPDIR: runnerTemp,
    });
    expect(separated?.env.TMPDIR?.startsWith(join(runnerTemp, 'agent-mux-tmp-'))).toBe(true);
    separated?.remove();
  });

  it('configuration outside the temp dir (a runner’s /home/runner): nothing changes', () => {
    expect(separateTempDir({ HOME: '/home/runner', TMPDIR: '/home/runner/work/_temp' })).toBeUndefined();
    expect(separateTempDir({ HOME: '/root' })).toBeUndefined();
    expect(separateTempDir({})).toBeUndefined();
  });

  it('a run whose HOME is under /tmp: the agent sees a TMPDIR beside it, gone after the run', async () => {
    const home = join(scratch(), 'home');
    const out = join(scratch(), 'seen');
    const script = `require('node:fs').writeFileSync(${JSON.stringify(out)}, process.env.TMPDIR + '\\n' + require('node:fs').existsSync(process.env.TMPDIR))`;
    const { end } = await collectRun(
      startRun({
        adapter: processAdapter('temp-probe', { binary: process.execPath, args: ['-e', script] }),
        request: { prompt: 'x', cwd: scratch() },
        env: { PATH: process.env.PATH, HOME: home },
      }),
    );
    expect(end.reason).not.toBe('failed');
    const [seen, existed] = readFileSync(out, 'utf8').split('\n');
    expect(seen?.startsWith('/tmp/agent-mux-tmp-')).toBe(true);
    expect(existed).toBe('true');
    expect(home.startsWith(seen as string)).toBe(false);
    expect(existsSync(seen as string)).toBe(false);
  });

  it('the file-system fence with a HOME under /tmp: a temp dir of its own inside the fence', () => {
    const home = join(scratch(), 'run.home');
    const ws = scratch();
    const fenced = fenceCommand(
      { kind: 'filesystem', home },
      { command: 'true', args: [], cwd: ws, workspace: ws, env: { PATH: '/usr/bin', TMPDIR: '/tmp', TMP: '/tmp' } },
    );
    expect(fenced.env).toMatchObject({ HOME: home, TMPDIR: '/tmp/.agent-mux-tmp', TMP: '/tmp/.agent-mux-tmp' });
    expect(fenced.args.join(' ')).toContain('--dir /tmp/.agent-mux-tmp');
    const base = join(homedir(), '.cache');
    mkdirSync(base, { recursive: true });
    const notTmp = mkdtempSync(join(base, 'agent-mux-sep-'));
    dirs.push(notTmp);
    const outside = fenceCommand(
      { kind: 'filesystem', home: join(notTmp, 'run.home') },
      { command: 'true', args: [], cwd: ws, workspace: ws, env: { PATH: '/usr/bin', TMPDIR: '/x' } },
    );
    expect(outside.env.TMPDIR).toBe('/tmp');
  });
});
