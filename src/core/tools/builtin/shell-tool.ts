import { execa } from 'execa';
import { z } from 'zod';
import { fenceCommand } from '../../sandbox/fence-command.ts';
import type { FenceOptions } from '../../sandbox/fence-options.ts';
import { openNetworkFor } from '../../sandbox/open-network-for.ts';
import { defineTool } from '../tool-registry.ts';

/** How `shell` runs a command. */
export interface ShellToolOptions {
  /** The command's environment: the agent's (built from the allowlist), never agent-mux's own. */
  env: Readonly<Record<string, string>>;
  /** The run's fence: the command runs inside it as the agent would. Default: none. */
  fence?: FenceOptions;
  /** Default and upper bound of one command's time. Default 120 000 ms. */
  timeoutMs?: number;
  /** Most bytes of stdout and of stderr returned (the rest is cut, said so). Default 64 KiB. */
  maxOutputBytes?: number;
  /** The shell. Default `bash`. */
  shell?: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_OUTPUT = 64 * 1024;

/**
 * `shell`: runs one command with `bash -c` in the workspace, in the run's fence and with the
 * agent's environment; returns its exit code and its output (each stream cut at `maxOutputBytes`).
 * This is the caller's shell that a remote agent's relayed shell calls reach (docs/remote.md): a
 * command that times out or whose run is stopped is killed with every process it started.
 */
export function shellTool(options: ShellToolOptions) {
  const limit = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return defineTool({
    name: 'shell',
    description:
      'Runs a shell command (bash -c) in the workspace and returns its exit code, stdout and stderr. The working directory is the repository root.',
    input: z.object({
      command: z.string().min(1).describe('The command line, run with bash -c in the workspace.'),
      timeoutMs: z.number().int().positive().optional().describe(`Time limit in ms (at most ${limit}).`),
    }),
    handler: async (input, ctx) => {
      const timeout = Math.min(input.timeoutMs ?? limit, limit);
      const target = {
        command: options.shell ?? 'bash',
        args: ['-c', input.command],
        cwd: ctx.workspacePath,
        workspace: ctx.workspacePath,
        env: { ...options.env },
      };
      // A fence with a network of its own gets it for the command too (the agent's loopback ports relayed).
      const network = await openNetworkFor(options.fence, Object.values(options.env));
      const spawned = options.fence ? fenceCommand(options.fence, target, network?.inside) : target;
      const child = execa(spawned.command, spawned.args, {
        cwd: ctx.workspacePath,
        env: spawned.env,
        extendEnv: false,
        stdin: 'ignore',
        // Its own process group: a timeout or a stop kills what the command started too (a
        // background job holding the output open included).
        detached: true,
        maxBuffer: maxBytes * 16,
        stripFinalNewline: false,
        reject: false,
        encoding: 'buffer',
      });
      let timedOut = false;
      let stopped = false;
      const killGroup = (signal: NodeJS.Signals) => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, signal);
        } catch {
          // The group is gone already.
        }
      };
      const stop = (why: 'timeout' | 'stop') => {
        if (why === 'timeout') timedOut = true;
        else stopped = true;
        killGroup('SIGTERM');
        setTimeout(() => killGroup('SIGKILL'), 2000).unref();
      };
      const timer = setTimeout(() => stop('timeout'), timeout);
      const onAbort = () => stop('stop');
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      let result: Awaited<typeof child>;
      let networkFailure: string | undefined;
      try {
        if (network && child.pid !== undefined) {
          await network.attach(child.pid).catch((error: Error) => {
            networkFailure = `the fence could not set up its network: ${error.message}`;
            killGroup('SIGKILL');
          });
        }
        result = await child;
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        // Whatever the command left running in its group (`cmd &`) ends with it.
        killGroup('SIGKILL');
        await network?.close();
      }
      const exitCode = result.exitCode ?? null;
      const out = {
        exitCode,
        stdout: cut(Buffer.from(result.stdout ?? new Uint8Array()), maxBytes),
        stderr: cut(Buffer.from(result.stderr ?? new Uint8Array()), maxBytes),
        ...(timedOut ? { timedOut: true, error: `timed out after ${timeout} ms` } : {}),
        ...(stopped ? { error: 'the run was stopped' } : {}),
        ...(networkFailure ? { error: networkFailure } : {}),
        ...(exitCode === null && !timedOut && !stopped && !networkFailure
          ? { error: result.shortMessage ?? 'the command could not run' }
          : {}),
      };
      return out;
    },
  });
}

function cut(bytes: Buffer, max: number): string {
  if (bytes.length <= max) return bytes.toString('utf8');
  return `${bytes.subarray(0, max).toString('utf8')}\n… (${bytes.length - max} more bytes cut)`;
}
