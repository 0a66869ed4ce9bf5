import picomatch from 'picomatch';
import { createBuiltinRegistry } from '../../adapters/builtin-registry.ts';
import type { Adapter } from '../../core/adapter/index.ts';
import { agentConfigPaths } from './agent-config-paths.ts';

/** The part of an adapter that says what its agent reads from the repository. */
export type RepositoryReader = Pick<Adapter, 'readsFromRepository'>;

let everyBuiltin: readonly string[] | undefined;

/**
 * What any built-in agent reads from the repository beyond the common set: each declares it in its
 * own folder (`Adapter.readsFromRepository`, e.g. Gemini CLI's `.env`, OpenClaw's `SOUL.md`,
 * Copilot's `.github/hooks/`; see docs/security.md, "Files an agent reads from the repository").
 */
export function builtinRepositoryReads(): readonly string[] {
  everyBuiltin ??= [
    ...new Set(
      createBuiltinRegistry()
        .list()
        .flatMap((adapter) => adapter.readsFromRepository ?? []),
    ),
  ];
  return everyBuiltin;
}

/**
 * The entries reset for an agent: the common set (`agentConfigPaths`) and what its adapter declares
 * it reads; for an adapter that declares nothing (a `generic-cli` or `process` agent, whose program
 * is unknown), what every built-in agent reads. Entry syntax: a name ending in `/` is a folder
 * (everything under it counts); a name starting with `/` is anchored at the top of the repository
 * (the agent's working directory); any other name matches at any depth. Letter case is ignored.
 */
export function resetPathsFor(adapter: RepositoryReader | undefined): readonly string[] {
  return [...agentConfigPaths, ...(adapter?.readsFromRepository ?? builtinRepositoryReads())];
}

/** The glob patterns an entry stands for (see `resetPathsFor` for the syntax). */
function patternsOf(entry: string): string[] {
  const anchored = entry.startsWith('/');
  const name = anchored ? entry.slice(1) : entry;
  const prefix = anchored ? '' : '**/';
  return name.endsWith('/') ? [`${prefix}${name.slice(0, -1)}`, `${prefix}${name}**`] : [`${prefix}${name}`];
}

/**
 * A predicate over repository-relative paths (`/`-separated, as git prints them): whether the
 * path is, or lies under, one of `entries` (default: `resetPathsFor(undefined)`).
 */
export function resetPathMatcher(entries: readonly string[]): (path: string) => boolean {
  const matcher = picomatch(entries.flatMap(patternsOf), { dot: true, nocase: true });
  return (path) => matcher(path);
}
