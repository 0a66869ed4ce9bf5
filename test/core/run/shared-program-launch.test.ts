import { describe, expect, it } from 'vitest';
import type { LaunchContext } from '../../../src/core/adapter/index.ts';
import { TemplateError } from '../../../src/core/errors/index.ts';
import { type SharedProgramSpec, sharedProgramLaunch } from '../../../src/core/run/shared-program-launch.ts';

const ctx = (cwd: string, env: Record<string, string | undefined>): LaunchContext => ({
  request: { prompt: 'x', cwd, env: { PER_RUN: 'not for the shared program' } },
  runId: 'run-1',
  taskId: 'task-1',
  leaseToken: 'lease',
  leaseEpoch: 1,
  mcpUrl: '',
  mcpToken: '',
  workspacePath: cwd,
  env,
  debug: false,
});
/** `${NAME}`, a configuration template (not a JavaScript one). */
const ref = (name: string) => `\${${name}}`;
const spec = (input: Partial<SharedProgramSpec>): SharedProgramSpec => ({
  command: 'agent',
  args: [],
  workDir: '',
  env: {},
  graceMs: 100,
  ...input,
});

describe('sharedProgramLaunch', () => {
  it("runs in the run's cwd with its environment plus env, expanding environment and {{workspacePath}}", () => {
    const launch = sharedProgramLaunch(
      spec({ args: ['--dir', '{{workspacePath}}', `--key=${ref('KEY')}`], env: { MODE: `chat-${ref('KEY')}` } }),
      ctx('/work/a', { KEY: 'k1', HOME: '/home/u', UNSET: undefined }),
    );
    expect(launch).toEqual({
      command: 'agent',
      args: ['--dir', '/work/a', '--key=k1'],
      cwd: '/work/a',
      env: { KEY: 'k1', HOME: '/home/u', MODE: 'chat-k1' },
    });
  });

  it('prefers work_dir, which {{workspacePath}} then names', () => {
    const launch = sharedProgramLaunch(
      spec({ workDir: '/srv/agent', args: ['{{workspacePath}}'] }),
      ctx('/work/a', {}),
    );
    expect(launch).toMatchObject({ cwd: '/srv/agent', args: ['/srv/agent'] });
  });

  it('refuses per-run variables: the program outlives the run', () => {
    expect(() => sharedProgramLaunch(spec({ args: ['{{runId}}'] }), ctx('/work/a', {}))).toThrow(TemplateError);
  });
});
