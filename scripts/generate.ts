/**
 * `npm run generate`: writes the files derived from the folders of `src/adapters/` (see
 * `scripts/generate/generated-files.ts`), then the config's JSON schema. With `--check` it writes
 * nothing and exits 1 naming each file that differs. `test/generated-files.test.ts` fails while
 * any is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { generatedFiles } from './generate/generated-files.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [file, content] of await generatedFiles(root)) {
  if (readFileSync(join(root, file), 'utf8') === content) continue;
  stale.push(file);
  if (!check) writeFileSync(join(root, file), content);
}
if (check) {
  for (const file of stale) console.error(`stale: ${file} (run npm run generate)`);
  process.exit(stale.length === 0 ? 0 : 1);
}
for (const file of stale) console.log(`wrote ${file}`);
await execa('node', ['scripts/generate-schema.ts'], { cwd: root, stdio: 'inherit' });
