import type { Capabilities } from '../../core/adapter/index.ts';

/**
 * What a headless agent CLI (and an agent reached like one: ca-http-v1, agent-mux-remote, chat-sse,
 * the demo) is unless it says otherwise: one turn run to completion per run, the agent's own
 * session ids and turn end, pipes rather than a terminal, every platform.
 */
export const CLI_CAPABILITY_DEFAULTS = {
  pty: 'never',
  platforms: ['darwin', 'linux', 'win32'],
  execModel: 'run-to-completion',
  nativeSessionIds: true,
  turnCompletion: true,
} as const satisfies Partial<Capabilities>;

/** The capabilities a CLI adapter declares: those it must state, and any default it differs in. */
export type CliCapabilities = Omit<Capabilities, keyof typeof CLI_CAPABILITY_DEFAULTS> & Partial<Capabilities>;

/**
 * A CLI adapter's full capabilities from the ones that tell it apart (resume, fork, thinking, MCP,
 * approvals, session persistence, streaming), on top of {@link CLI_CAPABILITY_DEFAULTS}.
 */
export function cliCapabilities(own: CliCapabilities): Capabilities {
  return { ...CLI_CAPABILITY_DEFAULTS, platforms: [...CLI_CAPABILITY_DEFAULTS.platforms], ...own };
}
