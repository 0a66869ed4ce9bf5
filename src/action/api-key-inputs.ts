import { createBuiltinRegistry } from '../adapters/builtin-registry.ts';
import type { Adapter } from '../core/adapter/index.ts';
import { AgentMuxError } from '../core/errors/agent-mux-error.ts';

/** The remote agent host's bearer token: the Action's own input, for any `http` agent. */
export const REMOTE_TOKEN_INPUT = { 'remote-agent-token': 'AGENT_MUX_REMOTE_TOKEN' } as const;

/** What `action.yml` says of the inputs no adapter declares. */
export const ACTION_KEY_INPUT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'remote-agent-token': 'Bearer token for a remote agent host (AGENT_MUX_REMOTE_TOKEN). Pass it from a secret.',
};

/** Two adapters that give one input to two different variables. */
export class KeyInputConflictError extends AgentMuxError {
  constructor(message: string) {
    super('key_input_conflict', message);
    this.name = 'KeyInputConflictError';
  }
}

/**
 * The inputs that carry API keys, input name → the variable the agents read: what every adapter
 * declares in its own folder (`Adapter.keyInputs`), and the remote host's token. Throws
 * `KeyInputConflictError` when two adapters give one input to different variables.
 */
export function keyInputsOf(adapters: readonly Adapter[]): Readonly<Record<string, string>> {
  const inputs: Record<string, string> = { ...REMOTE_TOKEN_INPUT };
  const owners = new Map<string, string>(Object.keys(REMOTE_TOKEN_INPUT).map((input) => [input, 'the Action']));
  for (const adapter of adapters) {
    for (const [input, variable] of Object.entries(adapter.keyInputs ?? {})) {
      const earlier = inputs[input];
      if (earlier !== undefined && earlier !== variable) {
        throw new KeyInputConflictError(
          `the input ${input} is ${earlier} for ${owners.get(input)} but ${variable} for ${adapter.id}`,
        );
      }
      inputs[input] = variable;
      if (!owners.has(input)) owners.set(input, adapter.id);
    }
  }
  return inputs;
}

let builtin: Readonly<Record<string, string>> | undefined;

/** `keyInputsOf` the built-in adapters: the key inputs `action.yml` declares. */
export function apiKeyInputs(): Readonly<Record<string, string>> {
  builtin ??= keyInputsOf(createBuiltinRegistry().list());
  return builtin;
}
