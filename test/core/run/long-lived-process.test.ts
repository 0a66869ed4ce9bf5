import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ExitInfo } from '../../../src/core/adapter/index.ts';
import { SpawnError } from '../../../src/core/errors/index.ts';
import { LongLivedProcess, type LongLivedProcessOptions } from '../../../src/core/run/long-lived-process.ts';
import { processAlive } from '../../support/collect-run.ts';
import { fixtureBin } from '../../support/with-program.ts';

const node = process.execPath;
const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-long-lived-'));
const env = { PATH: process.env.PATH ?? '' };

/** Starts a program and records what it reports, in order. */
async function start(command: string, args: string[], extra: Record<string, string> = {}) {
  const seen: string[] = [];
  let exit: ExitInfo | undefined;
  const options: LongLivedProcessOptions = {
    command,
    args,
    cwd,
    env: { ...env, ...extra },
    onStdoutLine: (line) => seen.push(`out:${line}`),
    onStderrLine: (line) => seen.push(`err:${line}`),
    onExit: (info) => {
      exit = info;
      seen.push('exit');
    },
  };
  const process = await LongLivedProcess.start(options);
  return { process, seen, exit: () => exit };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('LongLivedProcess', () => {
  it('writes lines to the program and delivers its stdout and stderr as lines', async () => {
    const { process, seen } = await start(node, [fixtureBin('line-repl.mjs')]);
    expect(process.alive).toBe(true);
    await process.writeLine('hello');
    await until(() => seen.some((line) => line.startsWith('out:(')));
    // stdout and stderr are two pipes: their relative order is not defined, each one's own order is.
    expect(seen.filter((line) => line.startsWith('out:'))).toEqual([
      'out:repl ready',
      'out:you said: hello',
      `out:(${process.pid}) done with: hello`,
    ]);
    await until(() => seen.includes('err:heard 5 chars'));
    expect(process.stderrTail.toString()).toContain('heard 5 chars');
    await process.stop(300);
  });

  it('reports the exit once, after every line, and leaves no grandchild of the group behind', async () => {
    const pidsFile = join(cwd, `pids-${Date.now()}.json`);
    const { process, seen, exit } = await start(node, [fixtureBin('fork-grandchildren.mjs'), '--exit'], {
      PIDS_FILE: pidsFile,
    });
    const info = await process.exited;
    expect(info).toEqual({ exitCode: 0, signal: null });
    expect(exit()).toEqual(info);
    expect(seen.at(-1)).toBe('exit');
    expect(seen.filter((line) => line === 'exit')).toHaveLength(1);
    expect(seen[0]).toContain('spawned');
    expect(process.alive).toBe(false);
    const pids: number[] = JSON.parse(readFileSync(pidsFile, 'utf8'));
    expect(pids.filter(processAlive)).toEqual([]);
    await expect(process.writeLine('late')).rejects.toThrow('is not running');
  });

  it('stop() SIGKILLs a program that ignores SIGTERM after the grace window', async () => {
    const { process, seen } = await start(node, [fixtureBin('ignore-sigterm.mjs')]);
    await until(() => seen.length > 0);
    const started = Date.now();
    const info = await process.stop(200);
    expect(info.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(processAlive(process.pid)).toBe(false);
  });

  it('rejects with SpawnError when the program cannot be started', async () => {
    const started = start('/nonexistent/long-lived', []);
    await expect(started).rejects.toBeInstanceOf(SpawnError);
    await expect(started).rejects.toThrow('/nonexistent/long-lived');
  });

  it('once unref()ed, does not keep Node alive, and dies with it', async () => {
    const module = new URL('../../../src/core/run/long-lived-process.ts', import.meta.url).pathname;
    const script = `
      import { LongLivedProcess } from ${JSON.stringify(module)};
      const p = await LongLivedProcess.start({
        command: 'sleep', args: ['30'], cwd: ${JSON.stringify(cwd)}, env: { PATH: process.env.PATH },
        onStdoutLine() {}, onStderrLine() {}, onExit() {},
      });
      process.stdout.write(String(p.pid));
      p.unref();
    `;
    const started = Date.now();
    const { stdout } = await promisify(execFile)(node, ['--input-type=module', '-e', script], { timeout: 10_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    const pid = Number(stdout);
    expect(pid).toBeGreaterThan(0);
    await until(() => !processAlive(pid));
    expect(processAlive(pid)).toBe(false);
  });
});
