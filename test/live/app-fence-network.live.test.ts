import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/agents/claude/index.ts';
import { startRun } from '../../src/core/run/start-run.ts';
import { probeFence } from '../../src/core/sandbox/index.ts';
import { cliDir, installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import { spec as claude } from './specs/claude.live.ts';

// Issue 32.17: the app's fence runs the agent in a network namespace of its own. The real Claude Code
// runs in the app's file-system fence (`network: 'own'`) with the fake model on the host's
// loopback: it reaches its model (the base URL in its environment is relayed in), and the shell
// command the model asks for cannot reach another service on the host's loopback.

let secret: Server;
let secretPort = 0;
let connections = 0;
const dirs: string[] = [];
let model: FakeModelServer | undefined;

beforeAll(async () => {
  secret = createServer((socket) => {
    connections += 1;
    socket.end('secret\n');
  });
  await new Promise<void>((done) => secret.listen(0, '127.0.0.1', done));
  secretPort = (secret.address() as { port: number }).port;
});
afterAll(async () => {
  secret.close();
  await model?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the app’s fence with a network of its own, with the real Claude Code', () => {
  it('reaches the model through the relay; the agent’s command cannot reach the host’s loopback', async () => {
    const bin = await installCli(claude);
    const workspace = mkdtempSync(join(tmpdir(), 'agent-mux-live-fence-net-ws-'));
    const homeRoot = join(homedir(), '.cache', 'agent-mux', 'live-homes');
    mkdirSync(homeRoot, { recursive: true });
    const home = mkdtempSync(join(homeRoot, 'fence-net-'));
    dirs.push(workspace, home);
    writeFileSync(join(workspace, 'README.md'), '# workspace\n');
    const fence = { kind: 'filesystem' as const, home, network: 'own' as const, readOnly: [cliDir(claude)] };
    expect(await probeFence(fence, workspace)).toEqual({ ok: true });

    const command = `(exec 3<>/dev/tcp/127.0.0.1/${secretPort} && echo reached || echo blocked) > REACH.txt 2>/dev/null; cat REACH.txt`;
    model = await startFakeModelServer({ case: 'tool', shell: { command } });
    const { env } = await claude.setup({ baseUrl: model.url, home, workspace, bin, case: 'tool' });
    const adapter = claudeAdapter({ command: bin });
    const handle = startRun({
      adapter,
      request: { prompt: 'Check the port.', cwd: workspace },
      env: { PATH: process.env.PATH, HOME: home, CI: '1', NO_COLOR: '1', ...env },
      fence,
      policy: { default: 'allow' },
      mcp: 'off',
      timeoutMs: 120_000,
      graceMs: 2000,
    });
    const end = await handle.result;
    expect(end.reason, end.message).toBe('completed');
    expect(model.requests.length).toBeGreaterThan(1);
    expect(readFileSync(join(workspace, 'REACH.txt'), 'utf8').trim()).toBe('blocked');
    expect(connections).toBe(0);
  });
});
