/** Where the other agent-mux installation runs, and how to reach it. */
export type RemoteInvocation =
  | { mode: 'local' }
  | { mode: 'docker'; image: string; dockerArgs?: readonly string[] }
  | { mode: 'ssh'; host: string; sshArgs?: readonly string[] }
  | { mode: 'k8s'; pod: string; namespace?: string; container?: string };

export interface WrappedCommand {
  command: string;
  args: string[];
  /** What goes to stdin before the prompt (secrets for ssh and k8s), or empty. */
  stdinPrefix: string;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * A shell prelude that reads `NAME=value` lines from stdin up to an empty line, exports them,
 * then runs the command with the rest of stdin: secrets reach the remote process through its
 * environment without ever being on a command line (ps, shell history, audit logs).
 */
function stdinEnvPrelude(argv: readonly string[]): string {
  return `while IFS= read -r line && [ -n "$line" ]; do export "$line"; done; exec ${argv.map(quote).join(' ')}`;
}

/** Wraps `agent-mux run …` for the invocation mode. Secret values never appear in the result's args. */
export function wrapInvocation(
  invocation: RemoteInvocation,
  argv: readonly string[],
  secrets: Readonly<Record<string, string>>,
): WrappedCommand {
  const names = Object.keys(secrets);
  const envLines = names.length > 0 ? `${names.map((n) => `${n}=${secrets[n]}`).join('\n')}\n\n` : '\n';
  switch (invocation.mode) {
    case 'local':
      return { command: argv[0] as string, args: argv.slice(1), stdinPrefix: '' };
    case 'docker':
      // `-e NAME` without a value copies NAME from docker's own environment (which the run sets).
      return {
        command: 'docker',
        args: [
          'run',
          '--rm',
          '-i',
          ...names.flatMap((n) => ['-e', n]),
          ...(invocation.dockerArgs ?? []),
          invocation.image,
          ...argv,
        ],
        stdinPrefix: '',
      };
    case 'ssh':
      return {
        command: 'ssh',
        args: ['-T', ...(invocation.sshArgs ?? []), invocation.host, stdinEnvPrelude(argv)],
        stdinPrefix: envLines,
      };
    case 'k8s':
      return {
        command: 'kubectl',
        args: [
          'exec',
          '-i',
          ...(invocation.namespace ? ['-n', invocation.namespace] : []),
          ...(invocation.container ? ['-c', invocation.container] : []),
          invocation.pod,
          '--',
          'sh',
          '-c',
          stdinEnvPrelude(argv),
        ],
        stdinPrefix: envLines,
      };
  }
}
