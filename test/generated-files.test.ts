import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../scripts/generate/generated-files.ts';

// Issue 35.1: every list of the built-in agents is derived from their folders' `builtin` exports,
// so adding an agent touches its folder, its tests and fixtures, and these generated files only.
const root = fileURLToPath(new URL('..', import.meta.url));

describe('the files `npm run generate` derives from src/adapters/', async () => {
  const files = await generatedFiles(root);

  it('derives the registry, the ids, the README table and the key inputs', () => {
    expect([...files.keys()].sort()).toEqual([
      'README.md',
      'action.yml',
      'src/adapters/builtin-adapter-ids.generated.ts',
      'src/adapters/builtin-adapters.generated.ts',
    ]);
  });

  for (const [file, content] of files) {
    it(`${file} is up to date (run npm run generate)`, () => {
      expect(readFileSync(join(root, file), 'utf8') === content, `${file} is stale: run npm run generate`).toBe(true);
    });
  }
});
