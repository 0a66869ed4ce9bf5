/**
 * `npm run demo`: the built-in scripted agent on a fresh temporary workspace, through the built
 * command line (`dist/cli/index.js`, or the entry in AGENT_MUX_CLI). At a terminal it asks before
 * the agent writes; with no terminal (CI, a pipe, `< /dev/null`) nobody could answer, so it
 * approves automatically and says so. Ends with one line: what changed, and where.
 * Arguments after `--` go to `agent-mux run` (e.g. `npm run demo -- --approve none`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_NOTE_FILE } from '../src/adapters/agents/demo/render-demo-note.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = process.env.AGENT_MUX_CLI ?? join(root, 'dist/cli/index.js');
const prompt = 'fix the typo in README.md';
const extra = process.argv.slice(2);
const terminal = Boolean(process.stdin.isTTY && process.stderr.isTTY);
const auto = !terminal && !extra.some((arg) => arg === '--approve' || arg.startsWith('--approve='));
if (auto) {
  process.stderr.write(
    'No terminal to answer approvals at: the demo approves them automatically (--approve all). Run it in a terminal to answer them yourself.\n',
  );
}

const workspace = await mkdtemp(join(tmpdir(), 'agent-mux-demo-'));
const args = [cli, 'run', '--adapter', 'demo', '--cwd', workspace, ...(auto ? ['--approve', 'all'] : []), ...extra];
const child = spawn(process.execPath, [...args, prompt], { stdio: 'inherit' });
// Ctrl-C reaches the agent-mux process too (same process group): it stops the run and exits.
const ignore = () => undefined;
process.on('SIGINT', ignore);
process.on('SIGTERM', (signal) => child.kill(signal));
const code = await new Promise<number>((resolve) =>
  child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal === 'SIGINT' ? 130 : 1))),
);

const readme = join(workspace, 'README.md');
const what = existsSync(join(workspace, DEMO_NOTE_FILE))
  ? `wrote ${DEMO_NOTE_FILE}`
  : existsSync(readme) && !readFileSync(readme, 'utf8').includes('projcet')
    ? 'fixed the typo in README.md ("projcet" → "project")'
    : 'changed nothing (the write was not approved)';
const how = auto ? ', approved automatically because there was no terminal' : '';
process.stdout.write(`\ndemo: the agent ${what}${how}; workspace: ${workspace}\n`);
process.exitCode = code;
