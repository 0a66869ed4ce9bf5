import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { commentEvent } from '../support/github-world.ts';
import { type AppWorld, createAppWorld } from './app-world.ts';

const probe = new URL('../fixtures/bin/fence-probe.mjs', import.meta.url).pathname;

let world: AppWorld | undefined;
let reportDir: string | undefined;
let server: Server | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
  server?.close();
  if (reportDir) await rm(reportDir, { recursive: true, force: true });
});

/** A model provider stand-in on 127.0.0.1: its port. */
async function provider(): Promise<number> {
  server = createServer((socket) => socket.end());
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the app runs each agent fenced off (bubblewrap), with an allowlisted environment', () => {
  it('the agent cannot read the app’s key, database or other runs, nor its process; it can use its workspace, HOME and its model endpoint on 127.0.0.1, no other loopback service', async () => {
    reportDir = await mkdtemp(join(tmpdir(), 'agent-mux-report-'));
    const report = join(reportDir, 'report.json');
    const port = await provider();
    // Another service on the host's loopback (the app's own port, a database): not the agent's.
    const other = createServer((socket) => socket.end());
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    const otherPort = (other.address() as { port: number }).port;
    onTestFinished(() => {
      other.close();
    });
    const checks = (workDir: string, dataDir: string) => [
      `read:${join(dirname(dataDir), 'private-key.pem')}`,
      `read:${join(dirname(dataDir), '.env')}`,
      `read:${join(dataDir, 'agent-mux.db')}`,
      `list:${workDir}`,
      `read:${join(workDir, 'other-run', 'secret.txt')}`,
      `read:/proc/${process.pid}/environ`,
      `read:/proc/${process.pid}/cmdline`,
      `list:${dirname(probe)}`,
      'write-cwd',
      'write-home',
      `tcp:127.0.0.1:${port}`,
      `tcp:127.0.0.1:${otherPort}`,
    ];
    // The agent's config needs the world's paths: make the world, then commit the config naming them.
    const a = await createAppWorld({ config: 'agents: {}\n' });
    world = a;
    // The app's files, beside its data dir as a deployment has them (.env, private-key.pem, data/…).
    const appDir = dirname(a.settings.dataDir);
    await mkdir(a.settings.dataDir, { recursive: true });
    await writeFile(join(appDir, 'private-key.pem'), '-----BEGIN PRIVATE KEY-----\nsecret\n');
    await writeFile(join(appDir, '.env'), 'WEBHOOK_SECRET=hooks\n');
    await mkdir(join(a.settings.workDir, 'other-run'), { recursive: true });
    await writeFile(join(a.settings.workDir, 'other-run', 'secret.txt'), 'another repository');
    const list = checks(a.settings.workDir, a.settings.dataDir);
    const config = `
agents:
  prober:
    adapter: process
    options:
      binary: ${probe}
      args: ${JSON.stringify([report, ...list])}
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:${port}" }
      secretEnv: [ANTHROPIC_API_KEY]
`;
    await a.w.commit('main', { '.github/agent-mux.yml': config });
    a.w.gh.state.addIssue(a.w.repo, { number: 5, title: 'Probe', body: '', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 5, 'alice', '@agent prober: probe').payload);
    await a.runtime.dispatchPending();
    const result = await a.runtime.workOnce('w');
    expect(result).toMatchObject({ kind: 'ran', conclusion: 'success' });

    const seen = JSON.parse(await readFile(report, 'utf8')) as Record<string, string> & {
      env: Record<string, string>;
    } & Record<string, string[]>;
    for (const check of list.slice(0, 8)) {
      if (check.startsWith('list:')) continue;
      expect(seen[check], check).not.toBe('ok');
    }
    // The work dir exists only as the path to the run's own workspace: no other run is in it.
    expect(seen[`list:${a.settings.workDir}#entries`]).not.toContain('other-run');
    // Of the app's own directory only the agent's program is there (bound read-only).
    expect(seen[`list:${dirname(probe)}#entries`]).toEqual(['fence-probe.mjs']);
    expect(seen['write-cwd']).toBe('ok');
    expect(seen['write-home']).toBe('ok');
    // Its network is its own: the model endpoint its environment names is relayed in, nothing else of the loopback.
    expect(seen[`tcp:127.0.0.1:${port}`]).toBe('ok');
    expect(seen[`tcp:127.0.0.1:${otherPort}`]).not.toBe('ok');
    expect(seen.env.HOME).toMatch(/\.home$/);
  });
});
