// Loaded first by every entry point, before anything that needs a newer Node: keep it free of
// imports and of syntax or built-ins that an old Node lacks.

/** The oldest Node.js agent-mux runs on: `engines.node` in package.json says the same. */
export const MIN_NODE_VERSION = '22.18';

/**
 * The one sentence that says this Node.js is too old, or `undefined` when `version` (such as
 * `20.20.2`, with or without a leading `v`) is at least {@link MIN_NODE_VERSION}. `remedy` ends the
 * sentence: how to get a Node that works.
 */
export function nodeVersionProblem(program: string, version: string, remedy: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [needMajor = 0, needMinor = 0] = MIN_NODE_VERSION.split('.').map(Number);
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return `${program} needs Node.js ${MIN_NODE_VERSION} or newer (this is ${version.replace(/^v/, '')}): ${remedy}`;
}

export interface RequireNodeVersionOptions {
  /** Who needs it, as the sentence starts: `agent-mux`, `the agent-mux Action`. */
  program: string;
  /** How to get a Node that works, ending the sentence. */
  remedy: string;
  /** Put before the sentence, e.g. `::error::` so that GitHub Actions shows it as an error. */
  prefix?: string;
  /** Where the sentence goes. Default standard error; the Action's runner reads `::error::` from standard output. */
  to?: 'stdout' | 'stderr';
}

/**
 * Ends the process with exit code 1 and the one sentence of {@link nodeVersionProblem} (on
 * standard error unless `to` says otherwise) when this Node.js is too old; returns when it is new enough.
 */
export function requireNodeVersion(options: RequireNodeVersionOptions): void {
  const problem = nodeVersionProblem(options.program, process.versions.node, options.remedy);
  if (problem === undefined) return;
  (options.to === 'stdout' ? process.stdout : process.stderr).write(`${options.prefix ?? ''}${problem}\n`);
  process.exit(1);
}
