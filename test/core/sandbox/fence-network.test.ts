import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAdapter } from '../../../src/adapters/protocols/process/process-adapter.ts';
import { startRun } from '../../../src/core/run/start-run.ts';
import { type FenceOptions, loopbackPortsOf, probeFence } from '../../../src/core/sandbox/index.ts';
import { builtinTools } from '../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';
import { RUNUSER } from '../../support/runuser.ts';

const PROBE = resolve(import.meta.dirname, '../../fixtures/bin/net-probe.mjs');

/** A TCP server on `host` that says `reply` and hangs up. */
function service(host: string, reply: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end(reply));
  return new Promise((done) =>
    server.listen(0, host, () => done({ server, port: (server.address() as { port: number }).port })),
  );
}

/** The host's first address that is not a loopback one (what egress reaches, like any host off the machine). */
function outerAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return undefined;
}

let workspace: string;
let secret: { server: Server; port: number };
let allowed: { server: Server; port: number };
let model: { server: Server; port: number };
let outside: { server: Server; port: number };
const address = outerAddress();

// This file's own temporary directory (files run side by side): the relay sockets it checks are its runs'.
const suiteTemp = process.env.TMPDIR;
beforeAll(async () => {
  process.env.TMPDIR = await mkdtemp(join(tmpdir(), 'amux-fence-net-tmp-'));
  workspace = await mkdtemp(join(tmpdir(), 'amux-fence-net-'));
  secret = await service('127.0.0.1', 'the app itself');
  allowed = await service('127.0.0.1', 'mcp server');
  model = await service('127.0.0.1', 'model endpoint');
  // Bound to every address: reached from the fence through its egress, on the host's outer address.
  outside = await service('0.0.0.0', 'the world');
});
afterAll(async () => {
  for (const s of [secret, allowed, model, outside]) s.server.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(tmpdir(), { recursive: true, force: true });
  if (suiteTemp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = suiteTemp;
});

const fence = (extra: Partial<FenceOptions> = {}): FenceOptions => ({
  kind: 'filesystem',
  home: join(workspace, 'home'),
  network: 'own',
  ...extra,
});

async function probeRun(targets: string[], fenceOptions: FenceOptions | undefined, env: Record<string, string> = {}) {
  // What the fence printed when the probe crashed (bwrap's own setup errors exit 1): part of every failure's message.
  let stderr = '';
  const handle = startRun({
    onEvent: (event) => {
      if (event.type === 'crash') stderr = event.stderr ?? '';
    },
    adapter: processAdapter('net-probe', { binary: PROBE }),
    request: { prompt: 'reach', cwd: workspace },
    env: { PATH: process.env.PATH, NET_PROBE: targets.join(','), ...env },
    fence: fenceOptions,
    graceMs: 500,
    terminalGraceMs: 300,
    checkVersion: false,
  });
  const end = await handle.result;
  const why = `${end.reason}: ${end.message ?? ''}${stderr ? `; stderr: ${stderr.trim()}` : ''}`;
  return { end, why, reached: (end.output ?? {}) as Record<string, string> };
}

/** The slirp4netns processes this test process started (other files' fences run meanwhile). */
function slirpProcesses(): string[] {
  try {
    return execFileSync('pgrep', ['-a', '-P', String(process.pid), 'slirp4netns'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

describe('a fence with a network of its own (slirp4netns, no host loopback)', () => {
  it('works on this machine (bwrap and slirp4netns installed, user and network namespaces allowed)', async () => {
    expect(await probeFence(fence(), workspace)).toEqual({ ok: true });
  });

  it('without it, the agent reaches any service on the host’s loopback (the attack works)', async () => {
    const { end, reached } = await probeRun([`127.0.0.1:${secret.port}`], fence({ network: 'host' }));
    expect(end.reason).toBe('completed');
    expect(reached[`127.0.0.1:${secret.port}`]).toBe('the app itself');
  });

  it('with it, the host’s loopback is out of reach, by 127.0.0.1 and by the gateway alike', async () => {
    const targets = [`127.0.0.1:${secret.port}`, `10.0.2.2:${secret.port}`, `[::1]:${secret.port}`];
    const { end, reached } = await probeRun(targets, fence());
    expect(end.reason).toBe('completed');
    for (const target of targets) expect(reached[target]).toMatch(/^error /);
  });

  it('relays in only the allowed ports, and loopback endpoints named in the agent’s environment', async () => {
    const targets = [`127.0.0.1:${allowed.port}`, `localhost:${model.port}`, `127.0.0.1:${secret.port}`];
    const { end, why, reached } = await probeRun(targets, fence({ loopbackPorts: [allowed.port] }), {
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${model.port}/v1`,
    });
    // Once seen failing on a loaded CI machine with nothing reached: say how the run ended.
    expect(end.reason, why).toBe('completed');
    expect(reached).toEqual({
      [`127.0.0.1:${allowed.port}`]: 'mcp server',
      [`localhost:${model.port}`]: 'model endpoint',
      [`127.0.0.1:${secret.port}`]: expect.stringMatching(/^error /),
    });
  });

  it('keeps egress: a host off the loopback is reached', async () => {
    expect(address, 'this machine needs an address other than the loopback').toBeDefined();
    const target = `${address}:${outside.port}`;
    const { end, why, reached } = await probeRun([target], fence());
    expect(end.reason, why).toBe('completed');
    expect(reached[target]).toBe('the world');
  });

  it('the caller’s shell tool gets the same network', async () => {
    const host = createToolHost({
      runId: 'r',
      workspacePath: workspace,
      tools: builtinTools({ shell: { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, fence: fence() } }),
      policy: { default: 'allow', rules: [] },
      emit: () => undefined,
      task: { prompt: 'p' },
    });
    // The fence shows the workspace, not this checkout: the probe is run from there.
    await copyFile(PROBE, join(workspace, 'net-probe.mjs'));
    const result = await host.call('shell', {
      command: `NET_PROBE=127.0.0.1:${secret.port},${address}:${outside.port} node net-probe.mjs`,
    });
    expect(result).toMatchObject({ ok: true, value: { exitCode: 0 } });
    const line = JSON.parse((result as { value: { stdout: string } }).value.stdout) as { output: unknown };
    expect(line.output).toEqual({
      [`127.0.0.1:${secret.port}`]: expect.stringMatching(/^error /),
      [`${address}:${outside.port}`]: 'the world',
    });
  });

  it('leaves no slirp4netns and no relay socket behind', async () => {
    await probeRun([`127.0.0.1:${allowed.port}`], fence({ loopbackPorts: [allowed.port] }));
    expect(slirpProcesses()).toEqual([]);
    expect((await readdir(tmpdir())).filter((name) => name.startsWith('agent-mux-net-'))).toEqual([]);
  });

  it('fails closed without slirp4netns: the probe names it, and no agent starts', async () => {
    const broken = fence({ slirp4netns: '/nonexistent/slirp4netns' });
    const probe = await probeFence(broken, workspace);
    expect(probe).toMatchObject({ ok: false, message: expect.stringContaining('apt-get install slirp4netns') });
    const { end } = await probeRun([`127.0.0.1:${allowed.port}`], broken);
    expect(end.reason).toBe('failed');
    expect(end.message).toContain('could not set up its network, the agent was not started');
  });
});

describe('loopbackPortsOf', () => {
  it('finds the ports of loopback URLs and nothing else', () => {
    expect(
      loopbackPortsOf([
        'http://127.0.0.1:8080/mcp',
        'ANTHROPIC_BASE_URL is http://localhost:3000',
        'ws://[::1]:9000/x',
        'https://user:pw@127.0.0.2:4443',
        'http://example.com:80',
        'http://10.0.0.1:22',
        undefined,
      ]),
    ).toEqual([3000, 4443, 8080, 9000]);
  });
});

describe('a fence with a network of its own, started by an unprivileged user', () => {
  it('works where /dev/net/tun is open to that user, and says why not where it is not', async () => {
    const probeModule = resolve(import.meta.dirname, '../../../src/core/sandbox/index.ts');
    const script = `
      import { mkdtempSync } from 'node:fs';
      const { probeFence } = await import(${JSON.stringify(probeModule)});
      const dir = mkdtempSync('/tmp/agent-mux-unprivileged-');
      const probe = await probeFence({ kind: 'filesystem', home: dir + '/home', network: 'own' }, dir);
      (await import('node:fs')).rmSync(dir, { recursive: true, force: true });
      console.log(JSON.stringify(probe));`;
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? RUNUSER : process.execPath;
    const args = asRoot
      ? ['-u', 'nobody', '--', process.execPath, '--input-type=module', '-e', script]
      : ['--input-type=module', '-e', script];
    const printed = execFileSync(command, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/tmp' } });
    const probe = JSON.parse(printed.trim().split('\n').at(-1) ?? '{}') as { ok: boolean; message?: string };
    let tunOpen = true;
    try {
      execFileSync(
        command,
        asRoot
          ? ['-u', 'nobody', '--', 'test', '-r', '/dev/net/tun', '-a', '-w', '/dev/net/tun']
          : ['-e', "require('fs').accessSync('/dev/net/tun', 6)"],
      );
    } catch {
      tunOpen = false;
    }
    if (tunOpen) expect(probe).toEqual({ ok: true });
    else
      expect(probe).toMatchObject({
        ok: false,
        message: expect.stringContaining('needs read and write access to /dev/net/tun'),
      });
  });
});
