import { AgentMuxError, ConfigError } from '../core/errors/index.ts';
import type { CliIO } from './cli-io.ts';
import { adaptersCommand, adaptersUsage } from './commands/adapters-command.ts';
import { replayCommand, replayUsage } from './commands/replay-command.ts';
import { runCommand, runUsage } from './commands/run-command.ts';
import { serveCommand, serveUsage } from './commands/serve-command.ts';
import { simulateCommand, simulateUsage } from './commands/simulate-command.ts';
import { exitCodes } from './exit-codes.ts';
import { UsageError } from './usage-error.ts';

export const usage = `agent-mux: run any coding agent behind one interface and one event stream.

Usage:
  agent-mux run --adapter <id> [options] "<prompt>"    run an agent, show its events live
  agent-mux replay --adapter <id> --file <stream>       translate a recorded native stream
  agent-mux adapters [--json]                           list adapters and installed programs
  agent-mux serve --adapter <id> --port <n> [auth]      serve an adapter as a ca-http-v1 remote
  agent-mux simulate --event <name> --payload <file>    run the GitHub pipeline on a webhook payload

  agent-mux <command> --help                            a command's options

Try: agent-mux run --adapter demo "fix the typo in README.md"`;

const commands = {
  run: { handler: runCommand, usage: runUsage },
  replay: { handler: replayCommand, usage: replayUsage },
  adapters: { handler: adaptersCommand, usage: adaptersUsage },
  serve: { handler: serveCommand, usage: serveUsage },
  simulate: { handler: simulateCommand, usage: simulateUsage },
} as const;

/** The command line; returns the exit code. Never throws. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage}\n`);
    return name ? 0 : exitCodes.usage;
  }
  const command = commands[name as keyof typeof commands];
  if (!command) {
    io.stderr.write(`agent-mux: unknown command "${name}"\n\n${usage}\n`);
    return exitCodes.usage;
  }
  try {
    return await command.handler(rest, io);
  } catch (error) {
    if (UsageError.isInstance(error) || isParseArgsError(error)) {
      io.stderr.write(`agent-mux ${name}: ${(error as Error).message}\n\n${command.usage}\n`);
      return exitCodes.usage;
    }
    if (ConfigError.isInstance(error)) {
      io.stderr.write(`agent-mux ${name}: invalid configuration\n${error.message}\n`);
      return exitCodes.usage;
    }
    if (AgentMuxError.isInstance(error)) {
      io.stderr.write(`agent-mux ${name}: ${error.message}\n`);
      return error.code === 'adapter_not_found' ? exitCodes.usage : 1;
    }
    io.stderr.write(`agent-mux ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
