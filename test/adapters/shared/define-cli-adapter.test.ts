import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../../src/adapters/agents/copilot/copilot-adapter.ts';
import { ompAdapter } from '../../../src/adapters/agents/omp/omp-adapter.ts';
import {
  type CliAdapterOptions,
  cliProgramInfo,
  defineCliAdapter,
} from '../../../src/adapters/shared/define-cli-adapter.ts';
import type { LaunchContext, SessionContext } from '../../../src/core/adapter/index.ts';

interface ToyOptions extends CliAdapterOptions {
  mode?: string;
}

const toyTranslator = { init: () => ({ debug: false }), translate: () => [] };

const toyAdapter = defineCliAdapter<ToyOptions>({
  id: 'toy',
  displayName: 'Toy CLI',
  readsFromRepository: [],
  capabilities: {
    resume: false,
    fork: false,
    thinking: 'no',
    mcp: false,
    approvals: 'none',
    pty: 'never',
    platforms: ['linux'],
    sessionPersistence: 'none',
    execModel: 'run-to-completion',
    nativeSessionIds: false,
    turnCompletion: true,
    streaming: 'none',
  },
  program: {
    command: 'toy',
    minVersion: '1.0.0',
    npmPackage: '@toy/cli',
    install: [{ type: 'brew', command: 'brew install toy' }],
    testedVersion: '1.2.3',
    verifiedLive: true,
  },
  secretEnv: ['TOY_KEY'],
  sessionDir: (env) => `${env.TOY_HOME ?? '/toy'}/sessions`,
  plan: (_ctx, options) => ({ command: options.command, args: [options.mode ?? 'default'], protocol: 'text' }),
  translator: toyTranslator,
});

describe('defineCliAdapter', () => {
  it('applies the command default and passes the options to the plan', async () => {
    const adapter = toyAdapter();
    expect(adapter.program?.command).toBe('toy');
    expect(adapter.launch.kind).toBe('process');
    if (adapter.launch.kind !== 'process') throw new Error('expected a process launch');
    const plan = await adapter.launch.plan({} as LaunchContext);
    expect(plan).toMatchObject({ command: 'toy', args: ['default'] });

    const custom = toyAdapter({ command: '/opt/toy', mode: 'fast' });
    expect(custom.program?.command).toBe('/opt/toy');
    if (custom.launch.kind !== 'process') throw new Error('expected a process launch');
    expect(await custom.launch.plan({} as LaunchContext)).toMatchObject({ command: '/opt/toy', args: ['fast'] });
  });

  it('derives the npm install entry first, then the other methods', () => {
    const adapter = toyAdapter();
    expect(adapter.program).toEqual({
      command: 'toy',
      versionArgs: ['--version'],
      minVersion: '1.0.0',
      install: [
        { type: 'npm', command: 'npm install -g @toy/cli' },
        { type: 'brew', command: 'brew install toy' },
      ],
      npmPackage: '@toy/cli',
      testedVersion: '1.2.3',
      verifiedLive: true,
    });
  });

  it('fills in the rest of the adapter shape', () => {
    const adapter = toyAdapter();
    expect(adapter).toMatchObject({
      specificationVersion: 'v1',
      id: 'toy',
      displayName: 'Toy CLI',
      secretEnv: ['TOY_KEY'],
    });
    expect(adapter.sessionDir).toBe(`${process.env.TOY_HOME ?? '/toy'}/sessions`);
    expect(adapter.detectAuth).toBeUndefined();
    // Each call gets its own copy of the secrets.
    expect(toyAdapter().secretEnv).not.toBe(adapter.secretEnv);
  });

  it('opens a session when the definition gives `open`', async () => {
    const seen: string[] = [];
    const sessionAdapter = defineCliAdapter({
      ...{ id: 's', displayName: 'S', capabilities: toyAdapter().capabilities, secretEnv: [], readsFromRepository: [] },
      program: { command: 's', minVersion: '0.0.0', verifiedLive: false },
      open: async (_ctx, { command }) => {
        seen.push(command);
        return { done: Promise.resolve({ status: 'completed' }), stop: async () => {} };
      },
    });
    const adapter = sessionAdapter({ command: '/bin/s' });
    expect(adapter.program?.install).toEqual([]);
    if (adapter.launch.kind !== 'session') throw new Error('expected a session launch');
    await adapter.launch.open({} as SessionContext);
    expect(seen).toEqual(['/bin/s']);
  });
});

describe('cliProgramInfo', () => {
  it('pins the npm entry and adds its notes when asked', () => {
    expect(
      cliProgramInfo(
        {
          command: 'x',
          minVersion: '1',
          npmPackage: 'x-cli',
          npmInstall: { version: '1.2', notes: 'n' },
          verifiedLive: true,
        },
        'x',
      ).install,
    ).toEqual([{ type: 'npm', command: 'npm install -g x-cli@1.2', notes: 'n' }]);
  });

  it('keeps the adapters’ install entries and version args as they were', () => {
    expect(ompAdapter().program?.install[0]).toEqual({
      type: 'npm',
      command: 'npm install -g @oh-my-pi/pi-coding-agent@18.2.3',
      notes: 'runs on Bun (>= 1.3.14): `npm install -g bun` or https://bun.sh',
    });
    expect(copilotAdapter().program?.versionArgs).toEqual(['--version']);
    expect(copilotAdapter({ command: '/usr/bin/gh' }).program?.versionArgs).toEqual(['copilot', '--', '--version']);
  });
});
