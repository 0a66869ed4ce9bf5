import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runUsage } from '../../src/cli/commands/run-command.ts';
import { simulateUsage } from '../../src/cli/commands/simulate-command.ts';
import { main, usage } from '../../src/cli/main.ts';
import { memoryIO } from '../support/memory-io.ts';

const root = new URL('../../', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

const cli = async (...argv: string[]) => {
  const m = memoryIO(root);
  const code = await main(argv, m.io);
  return { code, out: m.stdout(), err: m.stderr() };
};

describe('agent-mux --version', () => {
  it.each(['--version', '-v'])('%s prints the version of package.json, exit 0', async (flag) => {
    expect(await cli(flag)).toEqual({ code: 0, out: `${version}\n`, err: '' });
  });

  it('the bundle (node dist/cli/index.js --version) knows it too', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), '--version'], {
      cwd: '/',
    });
    expect(stdout).toBe(`${version}\n`);
  });
});

describe('agent-mux help', () => {
  it('help <command> prints what <command> --help prints, exit 0', async () => {
    for (const [name, text] of [
      ['run', runUsage],
      ['simulate', simulateUsage],
    ] as const) {
      const help = await cli('help', name);
      expect(help).toEqual({ code: 0, out: `${text}\n`, err: '' });
      expect((await cli(name, '--help')).out).toBe(help.out);
    }
  });

  it('help alone prints the usage, which names help and --version', async () => {
    const { code, out } = await cli('help');
    expect(code).toBe(0);
    expect(out).toBe(`${usage}\n`);
    expect(await cli('help', 'help')).toEqual({ code: 0, out: `${usage}\n`, err: '' });
    expect(usage).toContain('agent-mux help <command>');
    expect(usage).toContain('agent-mux --version');
  });

  it('help of an unknown command suggests the closest, exit 2', async () => {
    const { code, out, err } = await cli('help', 'simualte');
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('unknown command "simualte" (did you mean simulate?)');
  });
});

describe('misspelt commands and options', () => {
  it('a misspelt command: did you mean, exit 2', async () => {
    const { code, err } = await cli('rn', 'fix it');
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('agent-mux: unknown command "rn" (did you mean run?)');
  });

  it('an unknown command nothing resembles: no suggestion, the usage, exit 2', async () => {
    const { code, err } = await cli('frobnicate');
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('agent-mux: unknown command "frobnicate"');
    expect(err).toContain(usage);
  });

  it('a misspelt option before any command: did you mean --version, exit 2', async () => {
    const { code, err } = await cli('--verison');
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('agent-mux: unknown option --verison (did you mean --version?)');
  });

  it.each([
    [['run', '--adpater', 'demo', 'x'], 'agent-mux run: unknown option --adpater (did you mean --adapter?)'],
    [
      ['run', '--adapter', 'demo', '--tiemout=3', 'x'],
      'agent-mux run: unknown option --tiemout (did you mean --timeout?)',
    ],
    [['simulate', '--evnet', 'issues'], 'agent-mux simulate: unknown option --evnet (did you mean --event?)'],
    [['replay', '--fiel', 'x'], 'agent-mux replay: unknown option --fiel (did you mean --file?)'],
    [['adapters', '--josn'], 'agent-mux adapters: unknown option --josn (did you mean --json?)'],
    [['serve', '--prot', '1'], 'agent-mux serve: unknown option --prot (did you mean --port?)'],
    [['run', '--frobnicate', 'x'], 'agent-mux run: unknown option --frobnicate'],
  ])('%j: %s, exit 2, then the command usage', async (argv, message) => {
    const { code, out, err } = await cli(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.split('\n')[0]).toBe(message);
    expect(err).toContain(`Usage: agent-mux ${argv[0]}`);
  });
});
