import { didYouMean } from '../core/errors/did-you-mean.ts';
import { AgentMuxError, ConfigError } from '../core/errors/index.ts';
import type { CliIO } from './cli-io.ts';
import { adaptersCommand, adaptersUsage } from './commands/adapters-command.ts';
import { replayCommand, replayUsage } from './commands/replay-command.ts';
import { runCommand, runUsage } from './commands/run-command.ts';
import { serveCommand, serveUsage } from './commands/serve-command.ts';
import { simulateCommand, simulateUsage } from './commands/simulate-command.ts';
import { exitCodes } from './exit-codes.ts';
import { packageVersion } from './package-version.ts';
import { UsageError } from './usage-error.ts';

export const usage = `agent-mux: run any coding agent behind one interface and one event stream.

Usage:
  agent-mux run --adapter <id> [options] "<prompt>"    run an agent, show its events live
  agent-mux replay --adapter <id> --file <stream>       translate a recorded native stream
  agent-mux adapters [--json]                           list adapters and installed programs
  agent-mux serve --adapter <id> --port <n> [auth]      serve an adapter as a ca-http-v1 remote
  agent-mux simulate --event <name> --payload <file>    run the GitHub pipeline on a webhook payload

  agent-mux help <command>                              a command's options (or <command> --help)
  agent-mux --version                                   the version of agent-mux

Try: agent-mux run --adapter demo "fix the typo in README.md"`;

const commands = {
  run: { handler: runCommand, usage: runUsage },
  replay: { handler: replayCommand, usage: replayUsage },
  adapters: { handler: adaptersCommand, usage: adaptersUsage },
  serve: { handler: serveCommand, usage: serveUsage },
  simulate: { handler: simulateCommand, usage: simulateUsage },
} as const;

type CommandName = keyof typeof commands;
const commandNames = Object.keys(commands) as CommandName[];
const isCommand = (name: string): name is CommandName => Object.hasOwn(commands, name);

/** `unknown command "rn" (did you mean run?)`, then the usage; exit 2. */
function unknownCommand(name: string, io: CliIO): number {
  const suggestion = didYouMean(name, commandNames);
  io.stderr.write(
    `agent-mux: unknown command "${name}"${suggestion ? ` (did you mean ${suggestion}?)` : ''}\n\n${usage}\n`,
  );
  return exitCodes.usage;
}

/** The command line; returns the exit code. Never throws. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${packageVersion}\n`);
    return 0;
  }
  if (name === 'help' && rest[0] !== undefined && rest[0] !== 'help') {
    const topic = rest[0];
    if (!isCommand(topic)) return unknownCommand(topic, io);
    io.stdout.write(`${commands[topic].usage}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`${usage}\n`);
    return name ? 0 : exitCodes.usage;
  }
  if (!isCommand(name)) {
    if (name.startsWith('-')) {
      const suggestion = didYouMean(name.replace(/^-+/, ''), ['version', 'help']);
      const hint = suggestion ? `did you mean --${suggestion}?` : "a command's options follow the command";
      io.stderr.write(`agent-mux: unknown option ${name} (${hint})\n\n${usage}\n`);
      return exitCodes.usage;
    }
    return unknownCommand(name, io);
  }
  const command = commands[name];
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
