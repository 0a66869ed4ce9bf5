import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuiltinAdapters } from '../../src/adapters/shared/builtin-adapters.ts';

/** One folder of `src/adapters/` whose `index.ts` exports `builtin`. */
export interface BuiltinFolder {
  /** Relative to `src/adapters/`, e.g. `agents/claude`. */
  readonly folder: string;
  readonly builtin: BuiltinAdapters;
}

/** The kinds of folder that can add built-in adapters, in the order they are read. */
const KINDS = ['agents', 'protocols'] as const;

/**
 * Every folder of `src/adapters/agents/` and `src/adapters/protocols/` whose `index.ts` exports
 * `builtin`, sorted by path: what the generated lists are derived from.
 */
export async function loadBuiltinFolders(root: string): Promise<BuiltinFolder[]> {
  const folders: BuiltinFolder[] = [];
  for (const kind of KINDS) {
    const base = join(root, 'src/adapters', kind);
    for (const name of readdirSync(base).sort()) {
      const index = join(base, name, 'index.ts');
      if (!existsSync(index)) continue;
      const module = (await import(pathToFileURL(index).href)) as { builtin?: BuiltinAdapters };
      if (module.builtin) folders.push({ folder: `${kind}/${name}`, builtin: module.builtin });
    }
  }
  return folders;
}
