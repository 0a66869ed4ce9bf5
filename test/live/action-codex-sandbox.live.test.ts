import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_MAIN, readCommandFile, runnerEnv, runStep } from '../action/run-action.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { WRITE_COMMAND } from './acp-write-cases.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import { spec as codex } from './specs/codex.live.ts';
import { spec as codexAcp } from './specs/codex-acp.live.ts';

// Issue 31, tried as a user would: the bundled Action (`node dist/index.js`, fenced as on a runner)
// with the real Codex under the default config (no `agents:`: `@agent codex:` runs codex-acp, its
// GitHub default), HOME outside the temp dir, and a model that does what a real one does: it runs
// the write in Codex's read-only sandbox, is refused, and asks again with escalation and a
// justification. The approval on GitHub shows the reason; a maintainer approves; the file is committed
// with a pull request; the answer reaches the tracking comment and the `final-message` output.

let world: GitHubWorld | undefined;
let model: FakeModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await world?.close();
  await model?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  world = undefined;
  model = undefined;
});

function freshHome(): string {
  const base = join(homedir(), '.cache', 'agent-mux', 'live-homes');
  mkdirSync(base, { recursive: true });
  const home = mkdtempSync(join(base, 'agent-mux-action-codex-'));
  dirs.push(home);
  return home;
}

describe('the bundled Action with the real Codex (codex-acp) under the default config', () => {
  it('sandboxed write refused → escalation with its reason shown on GitHub → approved → committed with a PR', async () => {
    const launcher = await installCli(codexAcp);
    await installCli(codex);
    const w = await createGitHubWorld({});
    world = w;
    model = await startFakeModelServer({
      case: 'tool',
      shell: {
        command: WRITE_COMMAND,
        escalate: {
          sandbox_permissions: 'require_escalated',
          justification: 'Write the marker file in the workspace.',
        },
      },
    });
    const home = freshHome();
    // Codex's provider reads the key from OPENAI_API_KEY, which the Action passes from its input.
    await codex.setup({ baseUrl: model.url, home, workspace: w.workspace, bin: launcher, case: 'tool' });
    const { writeFileSync, readFileSync } = await import('node:fs');
    const configPath = join(home, '.codex', 'config.toml');
    writeFileSync(
      configPath,
      readFileSync(configPath, 'utf8').replace(/env_key = "[^"]+"/, 'env_key = "OPENAI_API_KEY"'),
    );

    w.gh.state.addIssue(w.repo, { number: 51, title: 'Add the marker file', body: 'Please add it.', user: 'alice' });
    const event = commentEvent(w, 51, 'alice', '@agent codex: add the marker file');
    const files = await runnerEnv(w, event, { 'openai-api-key': 'sk-fake-live-key' });
    dirs.push(files.dir);
    const answered: string[] = [];
    const approver = setInterval(() => {
      for (const c of w.gh.state.comments(w.repo, 51)) {
        const id = /^<!-- agent-mux:approval:([^ ]+) -->/.exec(c.body)?.[1];
        if (!id || answered.includes(id)) continue;
        answered.push(id);
        // From the second after the ask: GitHub's times are whole seconds.
        setTimeout(() => w.gh.state.addComment(w.repo, 51, { body: `/approve ${id}`, user: 'bob' }), 1100);
      }
    }, 50);
    const result = await runStep(ACTION_MAIN, {
      ...files.env,
      HOME: home,
      PATH: `${dirname(launcher)}:${files.env.PATH}`,
    }).finally(() => clearInterval(approver));
    const outputs = await readCommandFile(files.output);
    expect(result.code, result.stdout.slice(-4000)).toBe(0);
    expect(outputs.conclusion).toBe('success');
    expect(answered).toHaveLength(1);

    const approval = w.gh.state.comments(w.repo, 51).find((c) => c.body.startsWith('<!-- agent-mux:approval:'));
    expect(approval?.body).toContain('the agent says: Write the marker file in the workspace.');
    expect(approval?.body).toContain('**Approved** by @bob');
    expect(model.requests.filter((r) => r.reply === 'tool')).toHaveLength(2);

    expect(outputs['pull-request-url']).toMatch(/^https:\/\/github\.com\/octo\/demo\/pull\/\d+$/);
    expect(await w.git(['show', `${outputs.branch}:agent-mux-live.txt`], w.bare)).toBe('agent-mux-live');
    // The sandboxed attempt was refused and is a step: by Codex's read-only sandbox where that sandbox
    // works, or by bubblewrap itself where it cannot start inside the runner fence (nested user
    // namespaces refused, as in this container as root) — then the probe's warning says so up front.
    const check = JSON.stringify(w.gh.state.checkRuns(w.repo));
    expect(check).toMatch(/Read-only file system|bwrap: /);
    const tracking0 = w.gh.state.comments(w.repo, 51).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    if (check.includes('bwrap: ')) {
      expect(check).toContain('Codex’s own sandbox does not work here');
      expect(tracking0?.body).toContain('Codex’s own sandbox does not work here');
    }
    const tracking = w.gh.state.comments(w.repo, 51).find((c) => c.body.startsWith('<!-- agent-mux:run:'));
    expect(tracking?.body).toContain('#### Answer');
    expect(outputs['final-message']).toContain('agent-mux-live');
    w.gh.assertNoViolations();
  }, 240_000);
});
