import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBuiltinFolders } from './builtin-folders.ts';
import { AGENTS_TABLE_MARKERS, renderAgentsTable } from './render-agents-table.ts';
import { KEY_INPUTS_MARKERS, renderKeyInputs } from './render-key-inputs.ts';
import { renderBuiltinAdapterIdsModule, renderBuiltinAdaptersModule } from './render-registry.ts';
import { replaceBetweenMarkers } from './replace-between-markers.ts';

/**
 * Every file (path relative to the repository → its content) derived from the folders of
 * `src/adapters/`: the registry's list, the ids the repository config offers, the README's table
 * of agents and `action.yml`'s key inputs. The JSON schema is generated from the config's zod
 * schema apart (`scripts/generate-schema.ts`).
 */
export async function generatedFiles(root: string): Promise<Map<string, string>> {
  const folders = await loadBuiltinFolders(root);
  const ids = folders.flatMap(({ builtin }) => builtin.adapters.map((create) => create().id));
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  return new Map([
    ['src/adapters/builtin-adapters.generated.ts', renderBuiltinAdaptersModule(folders)],
    ['src/adapters/builtin-adapter-ids.generated.ts', renderBuiltinAdapterIdsModule(ids)],
    [
      'README.md',
      replaceBetweenMarkers(read('README.md'), 'README.md', AGENTS_TABLE_MARKERS, renderAgentsTable(root, folders)),
    ],
    [
      'action.yml',
      replaceBetweenMarkers(read('action.yml'), 'action.yml', KEY_INPUTS_MARKERS, renderKeyInputs(folders)),
    ],
  ]);
}
