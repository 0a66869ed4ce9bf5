import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { GitHubWorld } from '../support/github-world.ts';
import { WORLD_TOKEN } from '../support/github-world.ts';

const root = new URL('../../', import.meta.url).pathname;
/**
 * What the Action's tests run: its sources (`src/action/index.ts`, on the Node that runs the tests,
 * which strips the types), so that a change is tested without `npm run bundle`; or, when
 * `AGENT_MUX_ACTION_DIST` names a directory (`dist`, or a bundle built elsewhere), its bundles.
 * Whether the committed `dist/` is what the sources build is test/dist/check-dist.test.ts's job.
 */
const dist = process.env.AGENT_MUX_ACTION_DIST;
export const ACTION_MAIN = dist ? resolve(root, dist, 'index.js') : join(root, 'src/action/index.ts');
export const ACTION_POST = dist ? resolve(root, dist, 'post/index.js') : join(root, 'src/action/post-entry.ts');
/** Node's compile cache for the steps the tests start (the sources are hundreds of modules): outside the temp dir. */
const COMPILE_CACHE = join(root, 'node_modules', '.cache', 'agent-mux-action-steps');

/** What the runner gives a step: the event file, the command files, the workspace, the inputs. */
export interface RunnerFiles {
  dir: string;
  env: Record<string, string>;
  output: string;
  summary: string;
  state: string;
}

/**
 * The workflow run id every step of this test file runs under: its own per file, because the
 * files run side by side and a file stops its leftover agents by this id.
 */
export const RUNNER_RUN_ID = String(10_000 + Math.floor(Math.random() * 89_999));

/** The environment the Actions runner gives the Action for `event` (inputs as `INPUT_*`, defaults from action.yml). */
export async function runnerEnv(
  w: GitHubWorld,
  event: { eventName: string; payload: unknown },
  inputs: Record<string, string> = {},
): Promise<RunnerFiles> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-mux-runner-'));
  const files = {
    event: join(dir, 'event.json'),
    output: join(dir, 'output'),
    summary: join(dir, 'summary.md'),
    state: join(dir, 'state'),
  };
  await writeFile(files.event, JSON.stringify(event.payload));
  for (const f of [files.output, files.summary, files.state]) await writeFile(f, '');
  const allInputs: Record<string, string> = {
    'github-token': WORLD_TOKEN,
    'config-path': '.github/agent-mux.yml',
    'bot-login': 'agent-mux[bot]',
    'poll-interval-seconds': '0.05',
    ...inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_API_URL: w.gh.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: `${w.repo.owner}/${w.repo.repo}`,
    GITHUB_RUN_ID: RUNNER_RUN_ID,
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKSPACE: w.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_STATE: files.state,
    RUNNER_TOOL_CACHE: join(dir, 'tool-cache'),
    RUNNER_TEMP: dir,
    NODE_COMPILE_CACHE: COMPILE_CACHE,
  };
  for (const [name, value] of Object.entries(allInputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return { dir, env, output: files.output, summary: files.summary, state: files.state };
}

export interface StepResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script>` as the runner does; `onSpawn` gets the child (to signal it). */
export function runStep(
  script: string,
  env: Record<string, string>,
  onSpawn?: (child: ReturnType<typeof spawn>) => void,
): Promise<StepResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    onSpawn?.(child);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Reads a runner command file (`GITHUB_OUTPUT`, `GITHUB_STATE`): `name<<delimiter\nvalue\ndelimiter` entries. */
export async function readCommandFile(file: string): Promise<Record<string, string>> {
  const text = await readFile(file, 'utf8');
  const result: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
    if (match?.[1] && match[2]) {
      const end = lines.indexOf(match[2], i + 1);
      result[match[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = (lines[i] ?? '').indexOf('=');
      if (eq > 0) result[(lines[i] ?? '').slice(0, eq)] = (lines[i] ?? '').slice(eq + 1);
    }
  }
  return result;
}
