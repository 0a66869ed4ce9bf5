import picomatch from 'picomatch';
import { agentConfigPaths } from './agent-config-paths.ts';

/**
 * What each agent CLI reads from the repository as instructions or configuration beyond the
 * common set (`agentConfigPaths`, reset for every agent), by adapter id. Entry syntax: a name
 * ending in `/` is a folder (everything under it counts); a name starting with `/` is anchored at
 * the top of the repository (the agent's working directory); any other name matches at any depth.
 * Letter case is ignored. Derived from the CLIs themselves (see docs/security.md, "Files an agent
 * reads from the repository"):
 *
 * - gemini: Gemini CLI's `findEnvFile` loads the first `.gemini/.env` or `.env` from the working
 *   directory upwards into its environment (`GEMINI_API_KEY`, `GOOGLE_GEMINI_BASE_URL`, …).
 * - qwen: Qwen Code's `findEnvFiles` likewise (`.qwen/.env`, `.env`), with the workspace trusted.
 * - openclaw: the workspace bootstrap files injected into the system prompt on every turn
 *   (`SOUL.md`, `TOOLS.md`, `IDENTITY.md`, `USER.md`, `HEARTBEAT.md`, `BOOTSTRAP.md`, `MEMORY.md`,
 *   `memory.md`), its daily memory (`memory/`) and workspace skills (`skills/`), at the top of
 *   the workspace (the run's cwd).
 * - copilot: Copilot CLI's repository hooks and skills (`.github/hooks/`, `.github/skills/`).
 */
export const adapterResetPaths: Readonly<Record<string, readonly string[]>> = {
  gemini: ['.env'],
  qwen: ['.env'],
  openclaw: [
    '/SOUL.md',
    '/TOOLS.md',
    '/IDENTITY.md',
    '/USER.md',
    '/HEARTBEAT.md',
    '/BOOTSTRAP.md',
    '/MEMORY.md',
    '/memory/',
    '/skills/',
  ],
  copilot: ['.github/hooks/', '.github/skills/'],
};

/**
 * Adapters known to read nothing from the repository beyond the common set (their CLIs were
 * checked), or that run elsewhere: they get `agentConfigPaths` alone. Any other id (a
 * `generic-cli` or `process` agent, an adapter added later) gets every table, since what it
 * loads is unknown.
 */
const commonOnly = new Set([
  'claude',
  'codex',
  'cursor',
  'hermes',
  'kilo',
  'omp',
  'opencode',
  'pi',
  'demo',
  'agent-mux-remote',
  'opencode-http',
  'http',
  'generic-http',
]);

/** The entries reset for an adapter: the common set and its own table (every table for an unknown id). */
export function resetPathsFor(adapterId: string | undefined): readonly string[] {
  const own =
    adapterId !== undefined && (commonOnly.has(adapterId) || Object.hasOwn(adapterResetPaths, adapterId))
      ? (adapterResetPaths[adapterId] ?? [])
      : Object.values(adapterResetPaths).flat();
  return [...agentConfigPaths, ...own];
}

/** The glob patterns an entry stands for (see `adapterResetPaths` for the syntax). */
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
