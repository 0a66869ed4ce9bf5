/**
 * The world of the fault tests: the fake GitHub (`octo/demo`, a real bare repository behind it) and
 * any number of real `probot run ./src/app/index.ts` children pointed at it, driven by signed
 * webhooks. Every child gets a marker in its environment that its agents inherit, so that whatever
 * a killed app leaves behind can be found and killed.
 */

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRunName } from '../../src/github/github-names.ts';
import { APP_ENTRY, type ProbotProcess, startProbot } from '../app-e2e/probot-process.ts';
import { sendWebhook, type WebhookResponse } from '../app-e2e/signed-webhook.ts';
import type { FakeCheckRun } from '../support/fake-github/fake-github.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { webhookPayload } from '../support/webhook-payload.ts';

export const SECRET = 'faults-webhook-secret';
export const INSTALLATION_ID = 1;
/** The check run name of runs of the agent named `name`. */
export const checkName = (name: string) => checkRunName(name);

/** The test agents (Process protocol), run with this `node`. */
export const APPROVAL_AGENT = fileURLToPath(new URL('./fixtures/approval-agent.mjs', import.meta.url));
export const QUICK_AGENT = fileURLToPath(new URL('./fixtures/quick-agent.mjs', import.meta.url));

/** A `.github/agent-mux.yml` agent entry running `script` through the Process adapter. */
export function processAgent(name: string, script: string): string {
  return `  ${name}:\n    adapter: process\n    options:\n      binary: ${process.execPath}\n      args: [${script}]\n`;
}

export interface FaultWorld {
  w: GitHubWorld;
  /** A temp dir for data dirs, logs and homes; removed by `close`. */
  root: string;
  /** In every child's (and so every agent's) environment as `AGENT_MUX_FAULT_MARK`. */
  marker: string;
  /** Where the test agents log their `start` (and `exit`) lines. */
  agentLog: string;
  /** Starts a `probot run` child on this world; `env` adds to (or overrides) the defaults. */
  startApp(env?: Record<string, string>): Promise<ProbotProcess>;
  /** A signed delivery to `app` (the installation added to the payload). */
  send(app: ProbotProcess, name: string, payload: Record<string, unknown>, id?: string): Promise<WebhookResponse>;
  /** Opens issue `number` and returns the webhook of `login`'s comment `body` on it. */
  mention(number: number, body: string, login?: string): Record<string, unknown>;
  /** The `check_run.requested_action` webhook of `login` pressing the button `identifier` of `check`. */
  buttonPress(check: FakeCheckRun, identifier: string, login: string): Record<string, unknown>;
  /** The test agents' log lines. */
  agentEvents(): Promise<AgentEvent[]>;
  /** Every app's output (for failure messages). */
  output(): string;
  /** Stops the apps, kills any process carrying the marker, removes everything. */
  close(): Promise<void>;
}

/** One line of the approval agent's log. */
export interface AgentEvent {
  what: 'start' | 'exit';
  pid: number;
  /** The agent's parent: the app process that ran it (quick agent only). */
  ppid?: number;
  runId: string;
  fencing: number;
  at: number;
}

/** Creates the fake GitHub world with `config` on `main` and users alice (write), bob (maintain). */
export async function createFaultWorld(config: string): Promise<FaultWorld> {
  const w = await createGitHubWorld({ config });
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-faults-'));
  const gitBase = join(root, 'git');
  await mkdir(join(gitBase, w.repo.owner), { recursive: true });
  await symlink(w.bare, join(gitBase, w.repo.owner, `${w.repo.repo}.git`));
  const home = join(root, 'home');
  await mkdir(home);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const marker = randomUUID();
  const agentLog = join(root, 'agents.log');
  const apps: ProbotProcess[] = [];
  const outputs: string[] = [];

  const world: FaultWorld = {
    w,
    root,
    marker,
    agentLog,
    async startApp(env = {}) {
      const app = await startProbot({
        entry: APP_ENTRY,
        cwd: root,
        env: {
          HOME: home,
          GIT_CONFIG_NOSYSTEM: '1',
          APP_ID: '1',
          PRIVATE_KEY: pem,
          WEBHOOK_SECRET: SECRET,
          GHE_HOST: new URL(w.gh.url).host,
          GHE_PROTOCOL: 'http',
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
          AGENT_MUX_DATA_DIR: join(root, 'data'),
          AGENT_MUX_WORK_DIR: join(root, `work-${apps.length}`),
          AGENT_MUX_GIT_BASE_URL: gitBase,
          AGENT_MUX_FAULT_MARK: marker,
          AGENT_MUX_FAULT_LOG: agentLog,
          // These tests are about the app's durability (kills, restarts, redeliveries), and their agents
          // write a shared log outside their workspace and carry a marker a /proc sampler looks for:
          // no bubblewrap fence here (its own tests are test/app/agent-fence.test.ts and
          // test/app-e2e/probot-stop.test.ts), but the environment allowlist stays, with the two names.
          AGENT_MUX_FENCE: 'off',
          AGENT_MUX_AGENT_ENV: 'AGENT_MUX_FAULT_MARK,AGENT_MUX_FAULT_LOG',
          ...env,
        },
      });
      apps.push(app);
      return app;
    },
    send: (app, name, payload, id) =>
      sendWebhook(app.webhookUrl, SECRET, {
        name,
        payload: {
          ...payload,
          installation: { id: INSTALLATION_ID, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' },
        },
        ...(id === undefined ? {} : { id }),
      }),
    mention(number, body, login = 'alice') {
      if (w.gh.state.issue(w.repo, number) === undefined) {
        w.gh.state.addIssue(w.repo, { number, title: `Issue ${number}`, body: 'Please fix.', user: 'alice' });
      }
      return commentEvent(w, number, login, body).payload;
    },
    buttonPress(check, identifier, login) {
      const payload = webhookPayload('check_run', 'requested_action', {
        owner: w.repo.owner,
        repo: w.repo.repo,
        login,
      });
      const run = payload.check_run as Record<string, unknown>;
      Object.assign(run, {
        id: check.id,
        name: check.name,
        head_sha: check.headSha,
        external_id: check.externalId,
        status: check.status,
        conclusion: null,
      });
      if (typeof run.app === 'object' && run.app !== null) Object.assign(run.app, { id: 1, slug: 'agent-mux' });
      payload.requested_action = { identifier };
      return payload;
    },
    async agentEvents() {
      const text = await readFile(agentLog, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AgentEvent);
    },
    output: () => [...outputs, ...apps.map((app) => app.output())].join('\n--- next app ---\n'),
    async close() {
      for (const app of apps.splice(0)) {
        await app.stop();
        outputs.push(app.output());
      }
      await killMarked(marker);
      await w.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** Pids of the live processes whose environment holds `AGENT_MUX_FAULT_MARK=<marker>` (Linux `/proc`). */
export async function markedProcesses(marker: string): Promise<number[]> {
  const needle = `AGENT_MUX_FAULT_MARK=${marker}`;
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (environ.split('\0').includes(needle)) pids.push(Number(entry));
  }
  return pids;
}

/** SIGKILLs every process carrying the marker (agents a killed app left behind, their children). */
export async function killMarked(marker: string): Promise<number[]> {
  const pids = await markedProcesses(marker);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value; fails with `explain()` when the time is up. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  explain: () => string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${explain()}`);
    await sleep(100);
  }
}

/** `items` in a random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** The check run of the fake that shows an Approve button, with the button's identifier. */
export function awaitingApproval(world: FaultWorld): (FakeCheckRun & { approve: string }) | undefined {
  for (const check of world.w.gh.state.checkRuns(world.w.repo)) {
    const approve = check.actions.find((a) => a.identifier.startsWith('approve:'));
    if (check.status !== 'completed' && approve !== undefined) return { ...check, approve: approve.identifier };
  }
  return undefined;
}
