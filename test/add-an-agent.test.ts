import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 35.1, tried as a contributor tries it: a copy of the repository, a new agent's folder and
// `npm run generate`. What changes is the folder and generated files only, and the new agent is
// registered, offered by the config, given its Action input and its README row.
const repo = fileURLToPath(new URL('..', import.meta.url));
let root: string;

const INDEX = `import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { qwenAdapter } from '../qwen/qwen-adapter.ts';

/** A made-up agent: Qwen Code's plan and translator under another id, with a key input of its own. */
function zedAdapter() {
  const base = qwenAdapter();
  return {
    ...base,
    id: 'zed',
    displayName: 'Zed Agent',
    secretEnv: [...(base.secretEnv ?? []), 'ZED_API_KEY'],
    keyInputs: { 'zed-api-key': 'ZED_API_KEY' },
  };
}

export const builtin = defineBuiltinAdapters({
  adapters: [zedAdapter],
  catalog: { permissions: 'allowed / excluded tools', mcp: 'yes' },
});
`;

async function git(...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd: root })).stdout;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agent-mux-add-agent-'));
  for (const entry of ['src', 'scripts', 'schema', 'README.md', 'action.yml', 'package.json', 'biome.json']) {
    cpSync(join(repo, entry), join(root, entry), { recursive: true });
  }
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, '.gitignore'), 'node_modules\n');
  await git('init', '-q');
  await git('add', '-A');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'base');
  mkdirSync(join(root, 'src/adapters/agents/zed'));
  writeFileSync(join(root, 'src/adapters/agents/zed/index.ts'), INDEX);
  writeFileSync(join(root, 'src/adapters/agents/zed/README.md'), '# Zed Agent\n');
  await execa('node', ['scripts/generate.ts'], { cwd: root });
}, 120_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('adding an agent', () => {
  it('changes its folder and generated files only', async () => {
    const changed = (await git('status', '--porcelain')).split('\n').map((line) => line.slice(3));
    expect(changed.sort()).toEqual([
      'README.md',
      'action.yml',
      'schema/agent-mux.schema.json',
      'src/adapters/agents/zed/',
      'src/adapters/builtin-adapter-ids.generated.ts',
      'src/adapters/builtin-adapters.generated.ts',
    ]);
  });

  it('registers it, offers its id, declares its key input and gives it a README row', async () => {
    const probe = `
      const { createBuiltinRegistry } = await import('./src/adapters/builtin-registry.ts');
      const { builtinAdapterIds } = await import('./src/github/config/repo-config-schema.ts');
      const { apiKeyInputs } = await import('./src/action/api-key-inputs.ts');
      console.log(JSON.stringify({
        registered: createBuiltinRegistry().get('zed').displayName,
        offered: builtinAdapterIds.includes('zed'),
        input: apiKeyInputs()['zed-api-key'],
      }));`;
    const { stdout } = await execa('node', ['--input-type=module', '-e', probe], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({ registered: 'Zed Agent', offered: true, input: 'ZED_API_KEY' });
    const diff = await git('diff', 'README.md', 'action.yml', 'schema/agent-mux.schema.json');
    expect(diff).toContain(
      '+| `zed` | Zed Agent | `@qwen-code/qwen-code` | live, 0.24.4 (0 recorded cases) | allowed / excluded tools | yes | [zed](src/adapters/agents/zed/README.md) |',
    );
    expect(diff).toContain('+  zed-api-key:');
    expect(diff).toContain('For Zed Agent (ZED_API_KEY). Pass it from a secret.');
    expect(diff).toMatch(/\+\s+"zed"/);
  }, 60_000);
});
