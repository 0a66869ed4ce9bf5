import type { Adapter } from '../../core/adapter/index.ts';

/**
 * An agent's row in the README's table of agents, declared in its folder. The rest of the row is
 * read from the folder's first adapter: its id, its npm package, the version it was checked
 * against live and the recorded cases under `test/fixtures/streams/<id>/`.
 */
export interface AgentCatalogEntry {
  /** The CLI's name in the table; its adapter's `displayName` when absent. */
  readonly name?: string;
  /** Where the program comes from when it is not its npm package (e.g. `not on npm`). */
  readonly source?: string;
  /** What it is checked against when that is not a live recording with its npm package. */
  readonly checkedAgainst?: string;
  /** How a run's tool policy reaches the agent. */
  readonly permissions: string;
  /** Whether it takes the run's MCP tools: `yes`, `no` or `—` (not applicable). */
  readonly mcp: 'yes' | 'no' | '—';
  /** Its page: `folder` (the folder's README.md, the default), `none`, or a link's text. */
  readonly docs?: 'folder' | 'none' | { readonly text: string; readonly href?: string };
}

/**
 * What one folder of `src/adapters/agents/` (or `protocols/`) adds to the built-in registry, as its
 * `index.ts` exports it under the name `builtin`. `npm run generate` reads every folder's and writes
 * the lists derived from them: the registry's adapters, the ids the repository config offers,
 * the Action's key inputs, the README's table.
 */
export interface BuiltinAdapters {
  /** The folder's adapters, its CLI mode first. */
  readonly adapters: readonly (() => Adapter)[];
  /** Its row in the README's table; absent: no row (a mode the README describes elsewhere). */
  readonly catalog?: AgentCatalogEntry;
  /**
   * The description of a key input (see `Adapter.keyInputs`) in `action.yml`, when the generated
   * one (`For <agents> (<VARIABLE>). Pass it from a secret.`) says too little.
   */
  readonly keyInputDescriptions?: Readonly<Record<string, string>>;
}

/** Declares a folder's `builtin` (typed, so a field's misspelling fails to compile). */
export function defineBuiltinAdapters(builtin: BuiltinAdapters): BuiltinAdapters {
  return builtin;
}
