import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/core/events/index.ts';
import type { SteerOutcome } from '../../src/core/run/agent-input.ts';
import { startRun } from '../../src/core/run/start-run.ts';
import { parseTurnRecord } from '../../src/github/conversation/turn-record.ts';
import { handleTrigger } from '../../src/github/use-cases/handle-trigger.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { runInWorld } from '../support/run-in-world.ts';
import { installCli } from './cli-cache.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import type { LiveSpec } from './live-spec.ts';
import { loadSpecs } from './load-specs.ts';
import { atBin, liveEnv, liveHomeRoot } from './run-live-case.ts';

// Issue 37.1 against the real Claude Code: a message given to the running agent while its tool
// call runs (a 3-second shell command) reaches the model in its next request, and the run shows
// where Claude took it. The fake model asks for the shell, then answers once a tool result is back.
const [claude] = await loadSpecs(['claude']);
const [claudeAcp] = await loadSpecs(['acp-claude']);
const [pi] = await loadSpecs(['pi']);
const [omp] = await loadSpecs(['omp']);
const [codex] = await loadSpecs(['codex']);
const [gemini] = await loadSpecs(['gemini']);
const STEER = 'Also handle the Windows case (steering from the live test).';

let server: FakeModelServer | undefined;
let world: GitHubWorld | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  await world?.close();
  server = undefined;
  world = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A message given to the running agent while its tool call runs (a 3-second shell command) reaches
 * the model in its next request, and the run shows where the agent took it: after the tool's
 * result, before the answer it shaped.
 */
async function steersDuringToolCall(spec: LiveSpec): Promise<void> {
  const bin = await installCli(spec);
  server = await startFakeModelServer({ case: 'tool', shell: { command: 'sleep 3 && echo agent-mux-live' } });
  const workspace = mkdtempSync(join(tmpdir(), `agent-mux-live-steer-${spec.adapter}-ws-`));
  const home = mkdtempSync(join(liveHomeRoot(), `agent-mux-live-steer-${spec.adapter}-home-`));
  dirs.push(workspace, home);
  const { env } = await spec.setup({ baseUrl: server.url, home, workspace, bin, case: 'tool' });
  const events: AgentEvent[] = [];
  let outcome: SteerOutcome | undefined;
  let steeredAt = 0;
  const handle = startRun({
    adapter: atBin(spec.create(), bin, () => {}),
    request: { prompt: 'Run the shell command `echo agent-mux-live` and tell me what it printed.', cwd: workspace },
    env: liveEnv(home, env),
    policy: { default: 'allow' },
    mcp: 'off',
    timeoutMs: 120_000,
    graceMs: 2000,
    onEvent: (event) => {
      events.push(event);
      if (event.type === 'tool_call_ready' && outcome === undefined) {
        steeredAt = Date.now();
        outcome = handle.steer({ text: STEER, from: '@alice' });
      }
    },
  });
  const end = await handle.result;
  expect(end.reason, end.message).toBe('completed');
  expect(outcome).toEqual({ kind: 'delivered' });
  const types = events.map((e) => (e.type === 'notice' ? `notice:${e.code}` : e.type));
  // Taken after the tool's result, before the answer it shaped.
  const steered = types.indexOf('notice:steered');
  expect(steered).toBeGreaterThan(types.indexOf('tool_result'));
  expect(steered).toBeLessThan(types.lastIndexOf('message_stop'));
  const notice = events[steered] as Extract<AgentEvent, { type: 'notice' }>;
  expect(notice.message).toMatch(/^a message from @alice was delivered to the running agent at 00:0\d: "Also handle/);
  const requests = server.requests.filter((r) => r.reply === 'tool' || r.reply === 'text');
  expect(JSON.stringify(requests.at(-1)?.body)).toContain(STEER);
  expect(JSON.stringify(requests[0]?.body)).not.toContain(STEER);
  // After the run, a message is queued for the next turn.
  expect(handle.steer({ text: 'too late' })).toEqual({ kind: 'queued', reason: expect.any(String) });
  expect(Date.now() - steeredAt).toBeLessThan(60_000);
}

describe.runIf(claude)('steering a running Claude Code (stream-json input)', () => {
  it('a message during a tool call is taken at the next step: the model’s next request carries it', async () => {
    if (claude) await steersDuringToolCall(claude);
  }, 120_000);
});

describe.runIf(pi)('steering a running pi (RPC mode, `prompt` with streamingBehavior "steer")', () => {
  it('a message during a tool call is taken before the next model request, which carries it', async () => {
    if (pi) await steersDuringToolCall(pi);
  }, 120_000);
});

describe.runIf(omp)('steering a running omp (RPC mode, as pi’s)', () => {
  it('a message during a tool call is taken before the next model request, which carries it', async () => {
    if (omp) await steersDuringToolCall(omp);
  }, 120_000);
});

describe.runIf(codex)('steering a running Codex (app-server, `turn/steer`)', () => {
  it('a message during a tool call is taken before the next model request, which carries it', async () => {
    if (codex) await steersDuringToolCall(codex);
  }, 120_000);
});

describe.runIf(claudeAcp && claude)('steering an ACP agent (Claude Code through claude-agent-acp)', () => {
  it('a message during the turn goes as the next session/prompt when it ends; the model’s next request carries it', async () => {
    if (!claudeAcp || !claude) return;
    await installCli(claude);
    const bin = await installCli(claudeAcp);
    server = await startFakeModelServer({ case: 'tool', shell: { command: 'sleep 3 && echo agent-mux-live' } });
    const workspace = mkdtempSync(join(tmpdir(), 'agent-mux-live-steer-acp-ws-'));
    const home = mkdtempSync(join(liveHomeRoot(), 'agent-mux-live-steer-acp-home-'));
    dirs.push(workspace, home);
    const { env } = await claudeAcp.setup({ baseUrl: server.url, home, workspace, bin, case: 'tool' });
    const events: AgentEvent[] = [];
    let outcome: SteerOutcome | undefined;
    const handle = startRun({
      adapter: atBin(claudeAcp.create(), bin, () => {}),
      request: { prompt: 'Run the shell command `echo agent-mux-live` and tell me what it printed.', cwd: workspace },
      env: liveEnv(home, env),
      policy: { default: 'allow' },
      mcp: 'off',
      timeoutMs: 120_000,
      graceMs: 2000,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'tool_call_ready' && outcome === undefined) {
          outcome = handle.steer({ text: STEER, from: '@alice' });
        }
      },
    });
    const end = await handle.result;
    expect(end.reason, end.message).toBe('completed');
    expect(outcome).toEqual({ kind: 'delivered' });
    const types = events.map((e) => (e.type === 'notice' ? `notice:${e.code}` : e.type));
    // Sent when the first turn ended, and answered in a second one.
    const steered = types.indexOf('notice:steered');
    expect(steered).toBeGreaterThan(types.indexOf('turn_end'));
    expect(types.lastIndexOf('turn_end')).toBeGreaterThan(steered);
    const requests = server.requests.filter((r) => r.reply === 'tool' || r.reply === 'text');
    expect(JSON.stringify(requests.at(-1)?.body)).toContain(STEER);
    expect(JSON.stringify(requests[0]?.body)).not.toContain(STEER);
  }, 120_000);
});

/**
 * The Action's path on the fake GitHub with the real `spec` CLI: alice's mention on issue `number`
 * starts a run, and bob's `@agent <STEER>` is posted at the first event `commentAt` accepts.
 */
async function commentDuringRun(spec: LiveSpec, number: number, commentAt: (event: AgentEvent) => boolean) {
  const bin = await installCli(spec);
  server = await startFakeModelServer({ case: 'tool', shell: { command: 'sleep 3 && echo agent-mux-live' } });
  const w = await createGitHubWorld({ config: `agents:\n  ${spec.adapter}:\n    adapter: ${spec.adapter}\n` });
  world = w;
  const home = mkdtempSync(join(liveHomeRoot(), `agent-mux-live-steer-gh-${spec.adapter}-home-`));
  dirs.push(home);
  const { env } = await spec.setup({ baseUrl: server.url, home, workspace: w.workspace, bin, case: 'tool' });
  w.gh.state.addIssue(w.repo, { number, title: 'Print the marker', body: '', user: 'alice' });
  const decision = await handleTrigger(
    w.deps,
    commentEvent(w, number, 'alice', '@agent Run the shell command `echo agent-mux-live` and tell me what it printed.'),
  );
  if (decision.kind !== 'run') throw new Error(decision.kind);
  let commented = false;
  const outcome = await runInWorld(w, decision.job, {
    answer: () => {},
    registry: () => w.registry().register(atBin(spec.create(), bin, () => {})),
    env: liveEnv(home, env),
    onEvent: (event) => {
      if (commented || !commentAt(event)) return;
      commented = true;
      w.gh.state.addComment(w.repo, number, { body: `@agent ${STEER}`, user: 'bob' });
    },
  });
  expect(commented).toBe(true);
  const tracking = w.gh.state.comments(w.repo, number).find((c) => parseTurnRecord(c.body) !== undefined);
  return { w, outcome, requests: server.requests, turn: parseTurnRecord(tracking?.body ?? '') };
}

describe.runIf(claude)('steering Claude Code from a comment (the Action’s path, fake GitHub)', () => {
  it('a writer’s mention while the run is in progress reaches the model’s next request', async () => {
    if (!claude) return;
    const { w, outcome, requests, turn } = await commentDuringRun(claude, 9, (e) => e.type === 'tool_call_ready');
    expect(outcome.end?.reason, outcome.reason).toBe('completed');
    const answered = requests.filter((r) => r.reply === 'tool' || r.reply === 'text');
    expect(JSON.stringify(answered.at(-1)?.body)).toContain(STEER);
    expect(outcome.progress.notices).toContainEqual(
      expect.objectContaining({ code: 'steered', message: expect.stringContaining('from @bob') }),
    );
    expect(turn?.steered).toHaveLength(1);
    w.gh.assertNoViolations();
  }, 120_000);
});

describe.runIf(gemini)(
  'a comment for Gemini CLI, which takes no message while it runs (the Action’s path, fake GitHub)',
  () => {
    it('is queued for the next turn and said so; the model never sees it in this run', async () => {
      if (!gemini) return;
      // Its shell is not allowed under the default config (it cannot ask): the comment comes as it starts.
      const { w, outcome, requests, turn } = await commentDuringRun(gemini, 11, (e) => e.type === 'session_start');
      expect(outcome.end?.reason, outcome.reason).toBe('completed');
      expect(outcome.progress.notices).toContainEqual({
        code: 'steer_queued',
        message: 'a message from @bob is queued for the next turn: this agent takes no message while it runs',
      });
      expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(STEER);
      expect(turn?.steered).toBeUndefined();
      w.gh.assertNoViolations();
    }, 120_000);
  },
);
