import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeFence } from '../../src/core/sandbox/index.ts';
import { commentEvent, createGitHubWorld, type GitHubWorld, WORLD_TOKEN } from '../support/github-world.ts';
import { ACTION_MAIN, readCommandFile, runnerEnv, runStep } from './run-action.ts';

// Issue 32, items 2–4: the agent in the Action attacks the runner. A runner's layout outside /tmp
// (as on a runner): `work/_temp` (RUNNER_TEMP) with the file-command files, `work/_actions` with
// agent-mux's own post step, a tool cache, a HOME. The attacking agent reports what worked.

const attacker = new URL('../fixtures/bin/runner-attacker.mjs', import.meta.url).pathname;
const fenceWorks = (await probeFence({ kind: 'processes' }, tmpdir())).ok;

let world: GitHubWorld | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await world?.close();
  world = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  try {
    execFileSync('pkill', ['-f', '^sleep 317$']);
  } catch {
    // none left: what the fenced case expects
  }
});

function layout() {
  const base = join(homedir(), '.cache');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'agent-mux-runner-'));
  dirs.push(root);
  const temp = join(root, 'work', '_temp');
  const paths = {
    root,
    temp,
    home: join(root, 'home'),
    report: join(root, 'home', 'attack.json'),
    post: join(root, 'work', '_actions', 'agent-mux', 'agent-mux', 'v1', 'dist', 'post', 'index.js'),
    envFile: join(temp, '_runner_file_commands', 'set_env_1'),
    pathFile: join(temp, '_runner_file_commands', 'add_path_1'),
    toolCache: join(root, 'hostedtoolcache'),
    toolFile: join(root, 'hostedtoolcache', 'node', '24.0.0', 'x64', 'bin', 'npm'),
  };
  for (const file of [paths.post, paths.envFile, paths.pathFile, paths.toolFile]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'original\n');
  }
  mkdirSync(paths.home, { recursive: true });
  return paths;
}

async function attack(fence: 'auto' | 'off') {
  const p = layout();
  const args = [attacker, p.report, p.post, p.envFile, p.pathFile, p.toolFile, WORLD_TOKEN];
  const w = await createGitHubWorld({
    config: `
agents:
  attacker:
    adapter: process
    options:
      binary: ${process.execPath}
      args: ${JSON.stringify(args)}
`,
  });
  world = w;
  w.gh.state.addIssue(w.repo, { number: 32, title: 'Notes', user: 'alice' });
  const files = await runnerEnv(w, commentEvent(w, 32, 'alice', '@agent attacker: write notes'), { fence });
  Object.assign(files.env, {
    RUNNER_TEMP: p.temp,
    GITHUB_ENV: p.envFile,
    GITHUB_PATH: p.pathFile,
    RUNNER_TOOL_CACHE: p.toolCache,
    HOME: p.home,
    RUNNER_ENVIRONMENT: 'self-hosted',
  });
  const result = await runStep(ACTION_MAIN, files.env);
  const report = JSON.parse(readFileSync(p.report, 'utf8')) as Record<string, unknown>;
  const untouched = [p.post, p.envFile, p.pathFile, p.toolFile].every((f) => readFileSync(f, 'utf8') === 'original\n');
  let survivors = '';
  try {
    survivors = execFileSync('pgrep', ['-f', '^sleep 317$'], { encoding: 'utf8' }).trim();
  } catch {
    // pgrep exits 1 when nothing matches
  }
  return { result, report, untouched, survivors, outputs: await readCommandFile(files.output) };
}

describe('the agent attacks the runner from inside the Action', () => {
  it.skipIf(!fenceWorks)(
    'fenced (the default): post step and tool cache read-only, file commands and agent-mux’s environment out of reach, no process outlives it',
    async () => {
      const { result, report, untouched, survivors } = await attack('auto');
      expect(result.code, result.stdout.slice(-2000)).toBe(0);
      expect(report.post).toBe('EROFS');
      expect(report.toolCache).toBe('EROFS');
      // The file-command files are not there at all (RUNNER_TEMP is an empty directory inside).
      expect(report.env).toBe('ENOENT');
      expect(report.path).toBe('ENOENT');
      expect(report.tokenIn).toEqual([]);
      expect(report.processes).toBeLessThan(5);
      expect(untouched).toBe(true);
      expect(survivors).toBe('');
    },
  );

  it('unfenced (fence: off, chosen by the workflow): the same attacks work — what the fence is for', async () => {
    const { report, untouched } = await attack('off');
    expect(report.post).toBe('worked');
    expect(report.env).toBe('worked');
    expect((report.tokenIn as string[]).length).toBeGreaterThan(0);
    expect(untouched).toBe(false);
  });
});
