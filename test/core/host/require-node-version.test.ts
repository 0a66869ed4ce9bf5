import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_VERSION, nodeVersionProblem } from '../../../src/core/host/require-node-version.ts';

const root = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);

describe('nodeVersionProblem', () => {
  it.each(['20.20.2', 'v20.20.2', '18.0.0', '22.17.9', '22.0.0'])('%s is too old: one sentence', (version) => {
    expect(nodeVersionProblem('agent-mux', version, 'install Node 24')).toBe(
      `agent-mux needs Node.js 22.18 or newer (this is ${version.replace(/^v/, '')}): install Node 24`,
    );
  });

  it.each(['22.18.0', 'v22.18.1', '23.0.0', '24.9.0', '30.1.2'])('%s is new enough', (version) => {
    expect(nodeVersionProblem('agent-mux', version, 'x')).toBeUndefined();
  });

  it('asks for what package.json engines.node says', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${MIN_NODE_VERSION}`);
  });
});

/**
 * Runs an entry point on this Node pretending to be 20.20.2 (as `process.versions.node` says),
 * and lists every module of src/ that it loaded.
 */
async function asNode20(entry: string, args: string[] = []) {
  const loadedFile = join(mkdtempSync(join(tmpdir(), 'node-guard-')), 'loaded.txt');
  const preload = `
    import { registerHooks } from 'node:module';
    import { appendFileSync } from 'node:fs';
    Object.defineProperty(process.versions, 'node', { value: '20.20.2' });
    registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(loadedFile)}, url + '\\n'); return next(url, context); } });
  `;
  const child = await run(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, join(root, entry), ...args],
    { cwd: root, env: { ...process.env, GITHUB_ACTIONS: '' } },
  ).then(
    (ok) => ({ code: 0, stdout: ok.stdout, stderr: ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  const loaded = readFileSync(loadedFile, 'utf8')
    .split('\n')
    .filter((url) => url.includes('/src/'))
    .map((url) => url.slice(url.indexOf('/src/') + 1));
  return { ...child, loaded };
}

describe('the entry points check the Node version before loading anything else', () => {
  it('the CLI prints one sentence and exits 1', async () => {
    const result = await asNode20('src/cli/index.ts', ['--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^agent-mux needs Node\.js 22\.18 or newer \(this is 20\.20\.2\): [^\n]*npm run[^\n]*\n$/,
    );
    expect(result.loaded).toEqual(['src/cli/index.ts', 'src/core/host/require-node-version.ts']);
  });

  it.each([
    ['src/action/index.ts', 'the agent-mux Action'],
    ['src/action/post-entry.ts', 'the agent-mux Action (post step)'],
  ])('%s prints one error annotation and exits 1', async (entry, program) => {
    const result = await asNode20(entry);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(
      new RegExp(
        `^::error::${program.replace(/[()]/g, '\\$&')} needs Node\\.js 22\\.18 or newer \\(this is 20\\.20\\.2\\): [^\\n]*node24[^\\n]*\\n$`,
      ),
    );
    expect(result.loaded).toEqual([
      entry,
      'src/action/require-action-node.ts',
      'src/core/host/require-node-version.ts',
    ]);
  });
});
