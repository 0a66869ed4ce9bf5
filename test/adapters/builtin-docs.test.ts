import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBuiltinRegistry } from '../../src/adapters/builtin-registry.ts';

// Issue 35.1: the README's adapter table is generated from the folders (test/generated-files.test.ts);
// these hold it to the registry, so a new agent cannot land undocumented and a removed one leaves no
// row behind, and every agent's folder has its page (its README.md).
const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const acpPage = readFileSync(new URL('docs/adapters/acp.md', root), 'utf8');

/** The ids of the README's adapter table (the table whose header starts `| id | CLI |`) and their docs links. */
function readmeRows(): Map<string, string | undefined> {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^\| id \| CLI \|/.test(line));
  const rows = new Map<string, string | undefined>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const id = /^\| `([^`]+)` \|/.exec(line)?.[1];
    if (id) rows.set(id, /\]\(([^)]+\.md)\)/.exec(line)?.[1]);
  }
  return rows;
}

describe('the adapters’ documentation', () => {
  const ids = createBuiltinRegistry().ids();
  const rows = readmeRows();

  it('the README’s table has a row for every built-in CLI agent, and no row for an adapter that is gone', () => {
    expect(rows.size).toBeGreaterThan(10);
    for (const id of rows.keys()) expect(ids, `README row ${id}`).toContain(id);
    const cliAgents = ids.filter(
      (id) => !id.endsWith('-acp') && existsSync(new URL(`src/adapters/agents/${id}/`, root)),
    );
    for (const id of cliAgents) {
      if (id === 'opencode-http') continue; // OpenCode's server mode: a section of the README and its own page
      expect([...rows.keys()], `README adapter table lacks ${id}`).toContain(id);
    }
  });

  it('every docs link of the table resolves, and every agent has its page', () => {
    for (const [id, link] of rows) {
      if (link) expect(existsSync(new URL(link, root)), `${id}: ${link}`).toBe(true);
    }
    for (const id of ids.filter((id) => !id.endsWith('-acp') && id !== 'demo' && id !== 'agent-mux-remote')) {
      const folder = existsSync(new URL(`src/adapters/agents/${id}/`, root))
        ? `src/adapters/agents/${id}/`
        : `src/adapters/protocols/${id}/`;
      if (existsSync(new URL(folder, root))) {
        expect(existsSync(new URL(`${folder}README.md`, root)), `${folder}README.md`).toBe(true);
      }
    }
  });

  it('every ACP mode is named on docs/adapters/acp.md', () => {
    for (const id of ids.filter((id) => id.endsWith('-acp'))) {
      expect(acpPage, `docs/adapters/acp.md does not name ${id}`).toContain(`\`${id}\``);
    }
  });
});
