import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import type { Adapter } from '../../../src/core/adapter/index.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { collectRun } from '../../support/collect-run.ts';

/** A fake agent CLI: `--version` prints the given version, anything else completes. */
function fakeCli(version: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-version-'));
  const bin = join(dir, 'fake-agent');
  writeFileSync(
    bin,
    `#!${process.execPath}\nif (process.argv.includes('--version')) console.log('fake-agent ${version}');\nelse console.log(JSON.stringify({ type: 'complete', output: 'ok' }));\n`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

const withMinimum = (bin: string, minVersion: string): Adapter => ({
  ...processAdapter('fake', { binary: bin }),
  program: {
    command: bin,
    versionArgs: ['--version'],
    minVersion,
    install: [{ type: 'npm', command: 'npm i -g fake-agent' }],
    verifiedLive: false,
  },
});

describe('program version check', () => {
  it('warns once when the program is older than the minimum, and the run goes on', async () => {
    const bin = fakeCli('1.2.0');
    const { events, end } = await collectRun(
      startRun({ adapter: withMinimum(bin, '2.0.0'), request: { prompt: 'x', cwd: tmpdir() } }),
    );
    expect(end.reason).toBe('completed');
    const warning = events.find((e) => e.type === 'error' && e.code === 'version_below_minimum');
    expect(warning).toMatchObject({ recoverable: true });
    expect(warning?.type === 'error' && warning.message).toContain('1.2.0 is older than 2.0.0');
  });

  it('says nothing when the version is new enough', async () => {
    const bin = fakeCli('2.1.0');
    const { events, end } = await collectRun(
      startRun({ adapter: withMinimum(bin, '2.0.0'), request: { prompt: 'x', cwd: tmpdir() } }),
    );
    expect(end.reason).toBe('completed');
    expect(events.some((e) => e.type === 'error')).toBe(false);
  });

  it('checks a version the caller knows against the minimum without running --version', async () => {
    // The program says 2.1.0, the caller says it installed 1.0.0: the caller's version is the one checked.
    const bin = fakeCli('2.1.0');
    const { events, end } = await collectRun(
      startRun({
        adapter: withMinimum(bin, '2.0.0'),
        request: { prompt: 'x', cwd: tmpdir() },
        programVersion: '1.0.0',
      }),
    );
    expect(end.reason).toBe('completed');
    const warning = events.find((e) => e.type === 'error' && e.code === 'version_below_minimum');
    expect(warning?.type === 'error' && warning.message).toContain('1.0.0 is older than 2.0.0');
    const fine = await collectRun(
      startRun({
        adapter: withMinimum(fakeCli('1.0.0'), '2.0.0'),
        request: { prompt: 'x', cwd: tmpdir() },
        programVersion: '2.0.1',
      }),
    );
    expect(fine.events.some((e) => e.type === 'error' && e.code === 'version_below_minimum')).toBe(false);
  });
});
