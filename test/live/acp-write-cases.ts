import type { ShellCall } from './fake-model/script.ts';
import type { LiveSpec } from './live-spec.ts';

/** A command that writes: ACP agents may run a read-only one (`echo x`) without asking. */
export const WRITE_COMMAND = 'echo agent-mux-live > agent-mux-live.txt';
const WRITE_PROMPT = `Run the shell command \`${WRITE_COMMAND}\` and tell me what happened.`;

/**
 * An ACP spec's cases: its headless spec's, with `tool` and `denied` running {@link WRITE_COMMAND}
 * so that the agent asks over `session/request_permission`; `denied` refuses `deniedTool` (ACP's
 * kind `execute` unless the agent names the tool) by policy.
 */
export function acpWriteCases(
  headless: LiveSpec['cases'],
  options: { shell?: ShellCall; deniedTool?: string } = {},
): LiveSpec['cases'] {
  const shell = options.shell ?? { command: WRITE_COMMAND };
  return {
    ...headless,
    tool: { prompt: WRITE_PROMPT, shell },
    denied: {
      prompt: WRITE_PROMPT,
      shell,
      policy: { default: 'allow', rules: [{ tool: options.deniedTool ?? 'execute', decision: 'deny' }] },
    },
  };
}
