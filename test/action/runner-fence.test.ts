import { describe, expect, it } from 'vitest';
import { readActionInputs } from '../../src/action/action-inputs.ts';
import { decideRunnerFence, type RunnerFenceDeps, runnerFenceOptions } from '../../src/action/runner-fence.ts';
import type { FenceProbe } from '../../src/core/sandbox/index.ts';

const RUNNER = {
  GITHUB_WORKSPACE: '/home/runner/work/demo/demo',
  RUNNER_TEMP: '/home/runner/work/_temp',
  RUNNER_TOOL_CACHE: '/opt/hostedtoolcache',
  HOME: '/home/runner',
};

function deps(options: { bwrap?: readonly string[]; probes: readonly FenceProbe[]; sudoOk?: boolean }) {
  const sudo: string[] = [];
  const found = [...(options.bwrap ?? ['/usr/bin/bwrap'])];
  const probes = [...options.probes];
  const d: RunnerFenceDeps = {
    findBwrap: async () => (found.length > 1 ? found.shift() : found[0]) || undefined,
    probe: async () => probes.shift() ?? { ok: false, message: 'no more probes' },
    sudo: async (args) => {
      sudo.push(args.join(' '));
      return { ok: options.sudoOk ?? true, output: options.sudoOk === false ? 'sudo: a password is required' : '' };
    },
    log: () => undefined,
    actionRoot: '/home/runner/work/_actions/agent-mux/agent-mux/v1',
    runnerRoot: '/home/runner/runners/2.330.0',
  };
  return { d, sudo };
}
const refusedNs: FenceProbe = { ok: false, message: 'bwrap: setting up uid map: Permission denied' };

describe('runnerFenceOptions', () => {
  it('hides RUNNER_TEMP and the runner, makes _actions, agent-mux and the tool cache read-only, /tmp private', () => {
    const fence = runnerFenceOptions(RUNNER, '/usr/bin/bwrap', deps({ probes: [] }).d);
    expect(fence).toEqual({
      kind: 'processes',
      bwrap: '/usr/bin/bwrap',
      hidden: ['/home/runner/work/_temp', '/home/runner/runners/2.330.0'],
      readOnly: [
        '/home/runner/work/_actions',
        '/home/runner/work/_actions/agent-mux/agent-mux/v1',
        '/opt/hostedtoolcache',
      ],
      readWrite: [],
      privateTmp: true,
    });
  });

  it('a local action (uses: ./) is the checkout: not made read-only; a HOME under /tmp stays writable', () => {
    const fence = runnerFenceOptions({ ...RUNNER, HOME: '/tmp/h' }, 'bwrap', {
      actionRoot: '/home/runner/work/demo/demo',
    });
    expect(fence.readOnly).not.toContain('/home/runner/work/demo/demo');
    expect(fence.readWrite).toEqual(['/tmp/h']);
  });
});

describe('decideRunnerFence', () => {
  it('fence: off — unfenced with the warning, nothing probed', async () => {
    const { d, sudo } = deps({ probes: [] });
    const decided = await decideRunnerFence(RUNNER, 'off', d);
    expect(decided).toMatchObject({
      kind: 'off',
      warning: expect.stringContaining('can read agent-mux’s environment'),
    });
    expect(sudo).toEqual([]);
  });

  it('bwrap works: fenced, the host untouched', async () => {
    const { d, sudo } = deps({ probes: [{ ok: true }] });
    expect(await decideRunnerFence({ ...RUNNER, RUNNER_ENVIRONMENT: 'github-hosted' }, 'auto', d)).toMatchObject({
      kind: 'fenced',
      notes: [],
    });
    expect(sudo).toEqual([]);
  });

  it('GitHub-hosted, user namespaces refused: the AppArmor restriction is lifted with sudo, probed again', async () => {
    const { d, sudo } = deps({ probes: [refusedNs, { ok: true }] });
    const decided = await decideRunnerFence({ ...RUNNER, RUNNER_ENVIRONMENT: 'github-hosted' }, 'auto', d);
    expect(decided).toMatchObject({ kind: 'fenced', notes: [expect.stringContaining('lifted the AppArmor')] });
    expect(sudo).toEqual(['sysctl -w kernel.apparmor_restrict_unprivileged_userns=0']);
  });

  it('GitHub-hosted without bubblewrap: installed with apt-get', async () => {
    const { d, sudo } = deps({ bwrap: ['', '/usr/bin/bwrap'], probes: [{ ok: true }] });
    const decided = await decideRunnerFence({ ...RUNNER, RUNNER_ENVIRONMENT: 'github-hosted' }, 'auto', d);
    expect(decided).toMatchObject({ kind: 'fenced', notes: ['installed bubblewrap'] });
    expect(sudo).toEqual(['apt-get install -y -qq bubblewrap']);
  });

  it('GitHub-hosted where sudo does not help: refused (fail closed) with the reason', async () => {
    const { d } = deps({ probes: [refusedNs], sudoOk: false });
    const decided = await decideRunnerFence({ ...RUNNER, RUNNER_ENVIRONMENT: 'github-hosted' }, 'auto', d);
    expect(decided.kind).toBe('refused');
    expect(decided.kind === 'refused' && decided.reason).toMatch(/not started.*setting up uid map.*fence: off/);
  });

  it('self-hosted: never changes the host; missing or refused bubblewrap → refused with what to do', async () => {
    for (const [options, what] of [
      [{ bwrap: [''], probes: [] }, 'bubblewrap \\(bwrap\\) is not installed'],
      [{ probes: [refusedNs] }, 'setting up uid map'],
    ] as const) {
      const { d, sudo } = deps(options);
      const decided = await decideRunnerFence({ ...RUNNER, RUNNER_ENVIRONMENT: 'self-hosted' }, 'auto', d);
      expect(decided.kind).toBe('refused');
      expect(decided.kind === 'refused' && decided.reason).toMatch(
        new RegExp(`${what}.*self-hosted runner agent-mux does not change the host`),
      );
      expect(sudo).toEqual([]);
    }
  });
});

describe('input fence', () => {
  const inputs = (fence: string) => readActionInputs((name) => ({ 'github-token': 't', fence })[name as 'fence'] ?? '');
  it('auto (default) or off; anything else names the input', () => {
    expect(inputs('').fence).toBe('auto');
    expect(inputs('off').fence).toBe('off');
    expect(() => inputs('none')).toThrow(/input fence: "none" is not auto or off/);
  });
});
