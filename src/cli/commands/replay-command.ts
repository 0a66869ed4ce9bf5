import { constants, createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { replayStream } from '../../core/run/replay-stream.ts';
import type { CliIO } from '../cli-io.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { jsonRenderer } from '../render/json-renderer.ts';
import { UsageError } from '../usage-error.ts';
import { AGENT_OPTIONS, loadAdapter } from './load-registry.ts';

export const replayUsage = `Usage: agent-mux replay --adapter <id> --file <native-stream> [--config <file>] [--debug]

Feeds a recorded native stream (what the agent's program printed on stdout; - for stdin)
through the adapter's translator and prints the normalized events as JSON lines, one per
line, ending with run_end. This contract (flags and output) is stable.

Options:
  --adapter <id>      the adapter whose translator reads the stream
  --file <path>       the recorded stream, or - for standard input
  --config <file>     a file of adapters and defaults ({ "adapters": { … } }), JSON or YAML (README, "Command line")
  --exit-code <n>     the exit code the recorded program had (default 0)
  --debug             keep each native record on its events (raw) and report unknown records`;

/** `agent-mux replay`: 0 when the stream was read, whatever the run's end; 2 on bad usage. */
export async function replayCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs({
    args: argv,
    options: {
      ...AGENT_OPTIONS,
      file: { type: 'string' },
      'exit-code': { type: 'string' },
      debug: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(`${replayUsage}\n`);
    return 0;
  }
  if (!values.file) throw new UsageError('--file is required (- for standard input)');
  const exitCode = values['exit-code'] === undefined ? 0 : Number(values['exit-code']);
  if (!Number.isInteger(exitCode)) throw new UsageError('--exit-code takes an integer');
  const { adapter } = await loadAdapter(values, io.cwd);
  const path = resolve(io.cwd, values.file);
  if (values.file !== '-') {
    // A missing or unreadable file is a usage error that names it, not a stack.
    const problem = await access(path, constants.R_OK).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? 'no such file' : `cannot be read (${error.code})`),
    );
    if (problem) throw new UsageError(`--file ${values.file}: ${problem}`);
  }
  const input = values.file === '-' ? io.stdin : createReadStream(path);
  await replayStream(adapter, input, jsonRenderer(io.stdout), { debug: values.debug, exitCode });
  return 0;
}
