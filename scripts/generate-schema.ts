/**
 * Writes `schema/agent-mux.schema.json`, the JSON Schema of `.github/agent-mux.yml`, from its
 * zod schema, formatted by Biome like the rest of the repository. Run
 * `node scripts/generate-schema.ts` after changing `src/github/config/`;
 * `test/github/config/repo-config-json-schema.test.ts` fails while the file is stale.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { repoConfigJsonSchemaText } from '../src/github/config/repo-config-json-schema.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = 'schema/agent-mux.schema.json';
await writeFile(new URL(`../${target}`, import.meta.url), repoConfigJsonSchemaText());
await execa('biome', ['format', '--write', target], { cwd: root, preferLocal: true });
console.log(`wrote ${target}`);
