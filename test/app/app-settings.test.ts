import { describe, expect, it } from 'vitest';
import { readAppSettings } from '../../src/app/app-settings.ts';
import { AppSettingsError } from '../../src/app/app-settings-error.ts';

describe('readAppSettings', () => {
  it('defaults', () => {
    expect(readAppSettings({})).toEqual({
      databaseUrl: undefined,
      dataDir: './data',
      workers: 2,
      workDir: 'data/work',
      maxWorkspaceBytes: 10_240 * 1024 * 1024,
      leaseMs: 60_000,
      gitBaseUrl: 'https://github.com',
      perRepo: 2,
      defaultPerAdapter: 4,
      perInstallation: 4,
      storeQuotaBytes: 1024 * 1024 * 1024,
      maxRunBytes: 2048 * 1024 * 1024,
      perAdapter: {},
      startTimeoutMs: 300_000,
      fence: 'bwrap',
      fenceReadOnly: [],
      fenceNetwork: 'own',
      agentEnvExtra: [],
    });
  });

  it('reads every variable', () => {
    expect(
      readAppSettings({
        DATABASE_URL: 'postgres://u:p@db/agent_mux',
        AGENT_MUX_DATA_DIR: '/var/lib/agent-mux',
        AGENT_MUX_WORKERS: '0',
        AGENT_MUX_WORK_DIR: '/scratch',
        AGENT_MUX_MAX_WORKSPACE_MB: '100',
        AGENT_MUX_LEASE_SECONDS: '15',
        AGENT_MUX_GIT_BASE_URL: 'https://ghe.example.com/',
        AGENT_MUX_MAX_RUNS_PER_REPO: '1',
        AGENT_MUX_MAX_RUNS_PER_ADAPTER: '3',
        AGENT_MUX_MAX_RUNS_PER_INSTALLATION: '5',
        AGENT_MUX_STORE_QUOTA_MB: '20',
        AGENT_MUX_MAX_RUN_MB: '30',
        AGENT_MUX_ADAPTER_LIMITS: 'agent:gpu-box=1, codex=5',
        AGENT_MUX_START_TIMEOUT_SECONDS: '0.5',
        AGENT_MUX_FENCE: 'off',
        AGENT_MUX_FENCE_READ_ONLY: '/opt/claude:/opt/codex',
        AGENT_MUX_FENCE_NETWORK: 'host',
        AGENT_MUX_AGENT_ENV: 'HF_HOME, PIP_INDEX_URL',
      }),
    ).toEqual({
      databaseUrl: 'postgres://u:p@db/agent_mux',
      dataDir: '/var/lib/agent-mux',
      workers: 0,
      workDir: '/scratch',
      maxWorkspaceBytes: 100 * 1024 * 1024,
      leaseMs: 15_000,
      gitBaseUrl: 'https://ghe.example.com',
      perRepo: 1,
      defaultPerAdapter: 3,
      perInstallation: 5,
      storeQuotaBytes: 20 * 1024 * 1024,
      maxRunBytes: 30 * 1024 * 1024,
      perAdapter: { 'agent:gpu-box': 1, codex: 5 },
      startTimeoutMs: 500,
      fence: 'off',
      fenceReadOnly: ['/opt/claude', '/opt/codex'],
      fenceNetwork: 'host',
      agentEnvExtra: ['HF_HOME', 'PIP_INDEX_URL'],
    });
  });

  it('an empty variable counts as unset', () => {
    expect(readAppSettings({ AGENT_MUX_WORKERS: '', DATABASE_URL: '' })).toMatchObject({
      workers: 2,
      databaseUrl: undefined,
    });
  });

  it.each([
    { name: 'AGENT_MUX_WORKERS', value: '-1' },
    { name: 'AGENT_MUX_WORKERS', value: 'two' },
    { name: 'AGENT_MUX_LEASE_SECONDS', value: '0' },
    { name: 'AGENT_MUX_MAX_WORKSPACE_MB', value: '1.5' },
    { name: 'AGENT_MUX_ADAPTER_LIMITS', value: 'gpu-box' },
    { name: 'AGENT_MUX_ADAPTER_LIMITS', value: 'gpu-box=0' },
    { name: 'AGENT_MUX_START_TIMEOUT_SECONDS', value: '-5' },
    { name: 'AGENT_MUX_START_TIMEOUT_SECONDS', value: 'soon' },
  ])('$name=$value is refused, naming the variable', ({ name, value }) => {
    let caught: unknown;
    try {
      readAppSettings({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(AppSettingsError.isInstance(caught)).toBe(true);
    expect((caught as AppSettingsError).problems.join('\n')).toContain(name);
  });
});
