import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { processAdapter } from '../../src/adapters/protocols/process/process-adapter.ts';
import { type RemoteServerHandle, startRemoteServer } from '../../src/remote/index.ts';
import { commentEvent } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';
import { type AppWorld, createAppWorld, waitFor } from './app-world.ts';

const AGENT = fileURLToPath(new URL('../fixtures/bin/relayed-shell-agent.mjs', import.meta.url));
const TOKEN = 'app-remote-token-0123456789';

let world: AppWorld | undefined;
let server: RemoteServerHandle | undefined;
afterEach(async () => {
  await world?.close();
  await server?.close();
  world = undefined;
  server = undefined;
});

describe('the app drives a remote agent (agent-mux serve) on its own clone', () => {
  it.each([
    ['approved', 'approve', 'succeeded'],
    ['denied', 'deny', 'failed'],
  ] as const)('the remote’s shell call is asked with the check run’s buttons, %s', async (_, button, state) => {
    server = await startRemoteServer({
      adapter: processAdapter('relayer', { binary: process.execPath, args: [AGENT] }),
      auth: { type: 'bearer', token: TOKEN },
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
  timeout: 30s
`,
      startLoops: true,
      env: { AGENT_MUX_REMOTE_TOKEN: TOKEN },
    });
    world = a;
    a.w.gh.state.addIssue(a.w.repo, { number: 8, title: 'Greeting', body: 'Add one.', user: 'alice' });
    await a.receive('issue_comment', commentEvent(a.w, 8, 'alice', '@agent gpu: add GREETING.md').payload);
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
    expect(run.state).toBe(state);
    const pulls = a.w.gh.state.pulls(a.w.repo);
    if (button === 'approve') {
      expect(run.conclusion).toBe('success');
      expect(pulls).toHaveLength(1);
      expect(await a.w.git(['show', `${pulls[0]?.headRef}:GREETING.md`], a.w.bare)).toBe('hello');
    } else {
      // Refused and nothing changed: neutral, not ✅.
      expect(run.conclusion).toBe('neutral');
      expect(pulls).toHaveLength(0);
    }
    const approval = a.w.gh.state.comments(a.w.repo, 8).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('GREETING.md');
  });
});
