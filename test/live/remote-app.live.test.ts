import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { piAdapter } from '../../src/adapters/agents/pi/index.ts';
import { type RemoteServerHandle, startRemoteServer } from '../../src/remote/index.ts';
import { type AppWorld, createAppWorld, waitFor } from '../app/app-world.ts';
import { commentEvent } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import { spec as pi } from './specs/pi.live.ts';

// Issue 30, item 7: the same flow through the Probot app's worker. The real Pi (pinned) behind a
// real `agent-mux serve` (its own HOME and working root); the app's config points `gpu` at it; the
// fake model asks Pi to write GREETING.md. The command is relayed to the app's worker, asked on the
// check run (its Approve / Deny buttons), and runs in the worker's clone; approved, it is committed
// with a pull request; denied, nothing is written and the run is not ✅.

const WRITE = "printf 'hello\\n' > GREETING.md";
const TOKEN = 'app-remote-pi-token-0123456789';

let world: AppWorld | undefined;
let server: RemoteServerHandle | undefined;
let model: FakeModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await world?.close();
  await server?.close();
  await model?.close();
  world = undefined;
  server = undefined;
  model = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const scratch = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `agent-mux-remote-app-${name}-`));
  dirs.push(dir);
  return dir;
};

describe('the app drives the real Pi behind agent-mux serve', () => {
  it.each([
    ['approved', 'approve', 'succeeded'],
    ['denied', 'deny', 'failed'],
  ] as const)(
    'Pi’s write is asked with the check run’s buttons, %s',
    async (_, button, state) => {
      const bin = await installCli(pi);
      model = await startFakeModelServer({ case: 'tool', shell: { command: WRITE } });
      const serveHome = scratch('serve-home');
      const serveRoot = scratch('serve-root');
      const { env: providerEnv } = await pi.setup({
        baseUrl: model.url,
        home: serveHome,
        workspace: serveRoot,
        bin,
        case: 'tool',
      });
      server = await startRemoteServer({
        adapter: piAdapter({ command: bin }),
        auth: { type: 'bearer', token: TOKEN },
        workspaceRoot: serveRoot,
        env: { PATH: process.env.PATH, HOME: serveHome, ...providerEnv },
        fence: { kind: 'processes' },
      });
      const a = await createAppWorld({
        config: `
agents:
  gpu:
    adapter: http
    url: ${server.url}
    options:
      auth: { type: bearer, tokenEnv: AGENT_MUX_REMOTE_TOKEN }
approvals:
  users: []
  permission: maintain
  timeout: 60s
`,
        startLoops: true,
        env: { AGENT_MUX_REMOTE_TOKEN: TOKEN },
      });
      world = a;
      a.w.gh.state.addIssue(a.w.repo, { number: 8, title: 'Greeting', body: 'Add one.', user: 'alice' });
      await a.receive('issue_comment', commentEvent(a.w, 8, 'alice', '@agent gpu: please add GREETING.md').payload);
      const check = await waitFor(
        () => a.w.gh.state.checkRuns(a.w.repo).find((c) => (c.actions ?? []).length > 0),
        'the Approve / Deny buttons',
      );
      const identifier = check.actions?.find((b) => b.identifier.startsWith(`${button}:`))?.identifier ?? '';
      const payload = webhookPayload('check_run', 'requested_action', { owner: 'octo', repo: 'demo', login: 'bob' });
      Object.assign(payload.check_run as Record<string, unknown>, { id: check.id, external_id: check.externalId });
      payload.requested_action = { identifier };
      await a.receive('check_run', payload);
      const run = await waitFor(async () => {
        const [r] = await a.store.list();
        return r && ['succeeded', 'failed'].includes(r.state) ? r : undefined;
      }, 'the run to finish');
      expect(run.state, run.reason).toBe(state);
      const pulls = a.w.gh.state.pulls(a.w.repo);
      if (button === 'approve') {
        expect(run.conclusion).toBe('success');
        expect(pulls).toHaveLength(1);
        expect(await a.w.git(['show', `${pulls[0]?.headRef}:GREETING.md`], a.w.bare)).toBe('hello');
      } else {
        expect(run.conclusion).toBe('neutral');
        expect(pulls).toHaveLength(0);
      }
      const approval = a.w.gh.state.comments(a.w.repo, 8).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
      expect(approval?.body).toContain('GREETING.md');
      // The model saw the relayed tools, not Pi's own; nothing is left on the GPU host.
      const tools = JSON.stringify(model.requests.map((r) => (r.body as { tools?: unknown })?.tools ?? []));
      expect(tools).toMatch(/mcp__agent-?mux__shell/);
      await server.close();
      expect(readdirSync(serveRoot)).toEqual([]);
    },
    120_000,
  );
});
