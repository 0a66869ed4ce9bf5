import type { Capabilities } from '../../core/adapter/index.ts';

/**
 * What a program declared in a configuration (process, generic-cli, generic-job, generic-http,
 * external) is unless its type says otherwise: no resume or fork, no thinking, no MCP, no approvals,
 * no native session ids, pipes on darwin and linux, text streamed, and a turn that ends by itself.
 */
export const CONFIGURED_CAPABILITY_DEFAULTS = {
  resume: false,
  fork: false,
  thinking: 'no',
  mcp: false,
  approvals: 'none',
  pty: 'never',
  platforms: ['darwin', 'linux'],
  nativeSessionIds: false,
  turnCompletion: true,
  streaming: 'text',
} as const satisfies Partial<Capabilities>;

/** The capabilities a configured adapter type states: its session persistence and exec model, and any default it differs in. */
export type ConfiguredCapabilities = Omit<Capabilities, keyof typeof CONFIGURED_CAPABILITY_DEFAULTS> &
  Partial<Capabilities>;

/** A configured adapter type's full capabilities, on top of {@link CONFIGURED_CAPABILITY_DEFAULTS}. */
export function configuredCapabilities(own: ConfiguredCapabilities): Capabilities {
  return { ...CONFIGURED_CAPABILITY_DEFAULTS, platforms: [...CONFIGURED_CAPABILITY_DEFAULTS.platforms], ...own };
}
