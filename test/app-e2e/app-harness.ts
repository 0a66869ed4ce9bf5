/**
 * The app as it is deployed, for end-to-end tests: the real `probot run ./src/app/index.ts` in a child
 * process, talking to the fake GitHub (as a GitHub Enterprise host) and cloning a real bare repository,
 * driven only by signed webhooks over HTTP.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeCheckRun } from '../support/fake-github/fake-github.ts';
import { createGitHubWorld, type GitHubWorld } from '../support/github-world.ts';
import { APP_ENTRY, type ProbotProcess, startProbot } from './probot-process.ts';
import { sendWebhook } from './signed-webhook.ts';

export const SECRET = 'e2e-webhook-secret';
export const INSTALLATION_ID = 1;

/** The demo agent asks approval before it edits; maintainers (bob) may approve, readers (mallory) may not. */
export const APPROVAL_CONFIG = `
agents:
  demo:
    adapter: demo
approvals:
  users: []
  permission: maintain
  timeout: 120s
`;

export interface Harness {
  w: GitHubWorld;
  app: ProbotProcess;
  /** Sends a delivery signed with the app's secret (or `secret`) to the app's webhook URL. */
  send(
    name: string,
    payload: Record<string, unknown>,
    options?: { id?: string; secret?: string },
  ): ReturnType<typeof sendWebhook>;
}

export interface HarnessOptions {
  /** `.github/agent-mux.yml` of the repository. Default `APPROVAL_CONFIG`. */
  config?: string;
  /** More environment for `probot run` (overrides the harness's). */
  env?: Record<string, string>;
  /** Runs on the fake GitHub before the app starts (to inject faults). */
  prepare?: (w: GitHubWorld) => void;
}

/**
 * A fake GitHub with `octo/demo` installed (installation 1), and `probot run` pointed at it. What has to
 * be cleaned up is pushed onto `cleanups` (run them in reverse order after the test).
 */
export async function startHarness(cleanups: (() => Promise<void>)[], options: HarnessOptions = {}): Promise<Harness> {
  const w = await createGitHubWorld({ config: options.config ?? APPROVAL_CONFIG });
  cleanups.push(() => w.close());
  options.prepare?.(w);
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-e2e-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  // AGENT_MUX_GIT_BASE_URL/<owner>/<repo>.git must be the bare repository the fake's refs come from.
  const gitBase = join(root, 'git');
  await mkdir(join(gitBase, w.repo.owner), { recursive: true });
  await symlink(w.bare, join(gitBase, w.repo.owner, `${w.repo.repo}.git`));
  const home = join(root, 'home');
  await mkdir(home);

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = await startProbot({
    entry: APP_ENTRY,
    cwd: root,
    env: {
      HOME: home,
      GIT_CONFIG_NOSYSTEM: '1',
      APP_ID: '1',
      PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      WEBHOOK_SECRET: SECRET,
      GHE_HOST: new URL(w.gh.url).host,
      GHE_PROTOCOL: 'http',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      AGENT_MUX_DATA_DIR: join(root, 'data'),
      AGENT_MUX_WORK_DIR: join(root, 'work'),
      AGENT_MUX_GIT_BASE_URL: gitBase,
      AGENT_MUX_WORKERS: '1',
      ...options.env,
    },
  });
  cleanups.push(() => app.stop());
  return {
    w,
    app,
    send: (name, payload, sendOptions = {}) =>
      sendWebhook(app.webhookUrl, sendOptions.secret ?? SECRET, {
        name,
        payload: withInstallation(payload),
        ...(sendOptions.id === undefined ? {} : { id: sendOptions.id }),
      }),
  };
}

export function withInstallation(payload: Record<string, unknown>): Record<string, unknown> {
  return { ...payload, installation: { id: INSTALLATION_ID, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' } };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value; fails with the app's output when the time is up. */
export async function waitFor<T>(
  h: Harness,
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const requests = h.w.gh.requests.map((r) => `${r.method} ${r.path} → ${r.status}`).join('\n');
      throw new Error(
        `timed out waiting for ${what}\n--- app output ---\n${h.app.output()}\n--- requests ---\n${requests}`,
      );
    }
    await sleep(50);
  }
}

/** The run's check run once it shows an Approve button. */
export function awaitingApproval(h: Harness): Promise<FakeCheckRun & { approve: string }> {
  return waitFor(h, 'a check run with an Approve button', () => {
    for (const check of h.w.gh.state.checkRuns(h.w.repo)) {
      const approve = check.actions.find((a) => a.identifier.startsWith('approve:'));
      if (check.status !== 'completed' && approve !== undefined) return { ...check, approve: approve.identifier };
    }
    return undefined;
  });
}
