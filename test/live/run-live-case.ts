import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from '../../src/core/adapter/index.ts';
import type { AgentEvent } from '../../src/core/events/index.ts';
import type { RunEnd } from '../../src/core/run/run-options.ts';
import { startRun } from '../../src/core/run/start-run.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';
import type { LiveCase, LiveCaseName, LiveSpec } from './live-spec.ts';

export interface LiveCaseResult {
  /** The CLI's stdout, byte for byte: the native stream. */
  stdout: Buffer;
  stderr: string;
  events: AgentEvent[];
  end: RunEnd;
  /** The command line as run (the executable's own name, not its cache path). */
  commandLine: string[];
  requests: FakeModelServer['requests'];
  paths: { workspace: string; home: string; server: string };
  /** The request of the turn recorded (for `resume`, the second turn). */
  request: { prompt: string; resumeSessionId?: string };
}

/** The same adapter, running the CLI installed at `bin` instead of whatever is on PATH. */
export function atBin(adapter: Adapter, bin: string, seen: (args: readonly string[]) => void): Adapter {
  const launch = adapter.launch;
  if (launch.kind !== 'process') return adapter;
  return {
    ...adapter,
    launch: {
      ...launch,
      plan: async (ctx) => {
        const plan = await launch.plan(ctx);
        seen([plan.command, ...plan.args]);
        return { ...plan, command: plan.command === adapter.program?.command ? bin : plan.command };
      },
    },
  };
}

/** The environment a live CLI gets: this one without credentials, plus the spec's (dummy key, base URL). */
export function liveEnv(home: string, extra: Record<string, string>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/KEY|TOKEN|SECRET|PASSWORD|BASE_URL|^GH_|^GITHUB_/i.test(key)) continue;
    // The test runner's own markers: some CLIs (OpenClaw) print nothing when they think they are under test.
    if (/^VITEST|^NODE_ENV$|^TEST$/.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    NO_COLOR: '1',
    CI: '1',
    ...extra,
  };
}

export async function oneTurn(
  spec: LiveSpec,
  caseName: LiveCaseName,
  bin: string,
  liveCase: LiveCase,
  paths: { workspace: string; home: string },
  server: FakeModelServer,
  resume?: { prompt: string; resumeSessionId: string },
): Promise<Omit<LiveCaseResult, 'requests' | 'paths'>> {
  const request = { prompt: resume?.prompt ?? liveCase.prompt, resumeSessionId: resume?.resumeSessionId };
  const { env } = await spec.setup({
    baseUrl: server.url,
    home: paths.home,
    workspace: paths.workspace,
    bin,
    case: caseName,
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let commandLine: string[] = [];
  const events: AgentEvent[] = [];
  const handle = startRun({
    adapter: atBin(spec.create(), bin, (argv) => {
      commandLine = [...argv];
    }),
    request: {
      prompt: resume?.prompt ?? liveCase.prompt,
      cwd: paths.workspace,
      resumeSessionId: resume?.resumeSessionId,
    },
    env: liveEnv(paths.home, env),
    policy: liveCase.policy ?? { default: 'allow' },
    mcp: 'off',
    timeoutMs: spec.timeoutMs ?? 120_000,
    graceMs: 2000,
    onEvent: (event) => events.push(event),
    onNativeOutput: (stream, chunk) => (stream === 'stdout' ? stdout : stderr).push(Buffer.from(chunk)),
  });
  const end = await handle.result;
  return {
    stdout: Buffer.concat(stdout),
    stderr: Buffer.concat(stderr).toString('utf8'),
    events,
    end,
    commandLine,
    request,
  };
}

/**
 * Where the agents' HOMEs go: outside the temp dir. Codex 0.169 refuses to create its sandbox helper
 * (`codex-linux-sandbox`, an alias of its own binary) under the temp dir, and when a system `bwrap`
 * is on PATH (as on CI, where .ci/run installs bubblewrap) every command then fails with
 * "execvp codex-linux-sandbox: No such file or directory". A real runner's or the app's HOME is not
 * under /tmp either.
 */
export function liveHomeRoot(): string {
  const root = process.env.AGENT_MUX_LIVE_HOME_ROOT ?? join(homedir(), '.cache', 'agent-mux', 'live-homes');
  mkdirSync(root, { recursive: true });
  return root;
}

/** Runs one live case of a spec against a fresh fake model server, home and workspace. */
export async function runLiveCase(spec: LiveSpec, caseName: LiveCaseName, bin: string): Promise<LiveCaseResult> {
  const liveCase = spec.cases[caseName];
  if (!liveCase || 'skip' in liveCase) throw new Error(`${spec.adapter}: case ${caseName} is not recorded`);
  const server = await startFakeModelServer({ case: caseName, shell: liveCase.shell });
  const paths = {
    workspace: mkdtempSync(join(tmpdir(), `agent-mux-live-${spec.adapter}-ws-`)),
    home: mkdtempSync(join(liveHomeRoot(), `agent-mux-live-${spec.adapter}-home-`)),
    server: server.url,
  };
  writeFileSync(join(paths.workspace, 'README.md'), '# Live test workspace\n\nA file for the agent to look at.\n');
  try {
    if (caseName !== 'resume') {
      const turn = await oneTurn(spec, caseName, bin, liveCase, paths, server);
      return { ...turn, requests: server.requests, paths };
    }
    if (!spec.resumeRequest) throw new Error(`${spec.adapter}: the resume case needs spec.resumeRequest`);
    const first = await oneTurn(spec, 'plain', bin, liveCase, paths, server);
    const sessionId = first.end.sessionId;
    if (!sessionId) throw new Error(`${spec.adapter}: the first turn reported no session id to resume`);
    const second = await oneTurn(spec, caseName, bin, liveCase, paths, server, spec.resumeRequest(sessionId));
    return { ...second, requests: server.requests, paths };
  } finally {
    await server.close();
  }
}
