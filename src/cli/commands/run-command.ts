import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Adapter } from '../../core/adapter/index.ts';
import { PricingTable } from '../../core/cost/pricing-table.ts';
import { agentEnvironment } from '../../core/env/agent-environment.ts';
import type { AgentEvent } from '../../core/events/index.ts';
import { resolveRetryPolicy } from '../../core/retry/retry-policy.ts';
import type { RunHandle } from '../../core/run/run-options.ts';
import { startRun } from '../../core/run/start-run.ts';
import { probeFence } from '../../core/sandbox/probe-fence.ts';
import type { ApprovalChannel } from '../../core/tools/approval-channel.ts';
import { autoApprovalChannel } from '../../core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../core/tools/builtin-tools.ts';
import { createToolHost } from '../../core/tools/create-tool-host.ts';
import { defaultPolicy } from '../../core/tools/default-policy.ts';
import { policyForAgent } from '../../core/tools/policy-for-agent.ts';
import type { CliIO } from '../cli-io.ts';
import { exitCodeFor } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { jsonRenderer } from '../render/json-renderer.ts';
import { type PrettyRenderer, prettyRenderer } from '../render/pretty-renderer.ts';
import { terminalApprovalChannel } from '../terminal-approval-channel.ts';
import { UsageError } from '../usage-error.ts';
import { decideCliFence } from './cli-fence.ts';
import { AGENT_OPTIONS, loadAdapter } from './load-registry.ts';

/** Why approvals are denied when `--approve` is not given and there is no terminal to ask at. */
export const NO_TERMINAL_DENIAL =
  'there is no terminal to ask at (standard input or standard error is not a terminal); pass --approve all to allow every tool, or run it at a terminal';

export const runUsage = `Usage: agent-mux run --adapter <id> [options] "<prompt>"

Runs an agent and shows its events live. A prompt of - is read from standard input.

Options:
  --adapter <id>        a built-in adapter (see \`agent-mux adapters\`) or one from --config
  --config <file>       a file of adapters and defaults ({ "adapters": { … } }), JSON or YAML (README, "Command line")
  --json                print normalized events as JSON lines, one per line
  --timeout <s>         end the run after this many seconds (exit 124)
  --inactivity <s>      end the run when the agent prints nothing for this long (exit 124)
  --cwd <dir>           the agent's workspace (default: the current directory; the demo
                        adapter uses a fresh temporary directory)
  --model <name>        the model to ask the agent for
  --resume <session>    continue that session of the agent (its native resume; ACP: session/load)
  --approve <mode>      ask | all | none: answer tool approvals at the terminal (default when
                        it is one), approve all, or deny all (default otherwise)
  --fence <mode>        auto | on | off: run the agent in its own PID namespace (bubblewrap),
                        so that everything it started ends with the run (default auto: where
                        bubblewrap works, else unfenced with a note; on: refuse without it)
  --debug               keep native records on events and show logs
  -h, --help            this text

Exit code: 0 when the run completed, 1 failed or crashed, 2 bad usage or configuration,
3 budget exceeded, 124 timeout, 130 aborted.`;

const positiveSeconds = (value: string | undefined, flag: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} takes a number of seconds greater than 0`);
  return n * 1000;
};

/** The options of `agent-mux run` (see {@link runUsage}). */
const RUN_OPTIONS = {
  ...AGENT_OPTIONS,
  json: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  inactivity: { type: 'string' },
  cwd: { type: 'string' },
  model: { type: 'string' },
  resume: { type: 'string' },
  approve: { type: 'string' },
  fence: { type: 'string' },
  debug: { type: 'boolean', default: false },
} as const;

/** `agent-mux run`: returns the exit code. */
export async function runCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({ args: argv, allowPositionals: true, options: RUN_OPTIONS });
  if (values.help) {
    io.stdout.write(`${runUsage}\n`);
    return 0;
  }
  const prompt = await readPrompt(positionals, io.stdin);
  const approve = values.approve ?? (io.stdin.isTTY && io.stderr.isTTY ? 'ask' : 'none');
  if (!['ask', 'all', 'none'].includes(approve)) throw new UsageError('--approve takes ask, all or none');

  const { adapter, config } = await loadAdapter(values, io.cwd);
  checkResume(values.resume, adapter);
  const cwd = values.cwd
    ? resolve(io.cwd, values.cwd)
    : adapter.id === 'demo'
      ? await mkdtemp(join(tmpdir(), 'agent-mux-demo-'))
      : io.cwd;
  const fenced = await decideCliFence(values.fence ?? 'auto', (fence) => probeFence(fence, cwd));
  if (fenced.note) io.stderr.write(`${fenced.note}\n`);
  const timeoutMs = positiveSeconds(values.timeout, '--timeout') ?? secondsOf(config?.defaults?.timeoutSeconds);
  const inactivityTimeoutMs =
    positiveSeconds(values.inactivity, '--inactivity') ?? secondsOf(config?.defaults?.inactivitySeconds);

  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  const pretty = values.json
    ? undefined
    : prettyRenderer({ out: io.stdout, status: io.stderr, color, adapter: adapter.id, verbose: values.debug });
  const render = pretty ? (event: AgentEvent) => pretty.onEvent(event) : jsonRenderer(io.stdout);
  // Ctrl-C at a question stops the run as SIGINT does (onSignal is set before any question).
  const approvals = approvalChannel(approve, values.approve === undefined, io, pretty, () => onSignal('SIGINT'));

  const policy = policyForAgent(defaultPolicy, adapter.toolNames);
  const handle = startRun({
    adapter,
    request: { prompt, cwd, model: values.model, resumeSessionId: values.resume },
    timeoutMs,
    inactivityTimeoutMs,
    debug: values.debug,
    env: io.env,
    approvals,
    policy,
    ...(fenced.fence ? { fence: fenced.fence } : {}),
    pricing: config?.pricing ? new PricingTable(config.pricing) : undefined,
    retry: config?.defaults?.retry ? resolveRetryPolicy(config.defaults.retry) : undefined,
    tools: ({ runId, emit }) =>
      createToolHost({
        runId,
        workspacePath: cwd,
        // An agent whose tools are all the run's (a remote one, a Process agent) gets this shell too.
        tools: builtinTools(adapter.callerTools === 'native' ? { shell: { env: agentEnvironment(io.env) } } : {}),
        policy,
        approvals,
        emit,
        task: { prompt },
      }),
    onEvent: render,
  });

  const onSignal = interruptHandler(io.stderr, handle);
  io.signals?.on('SIGINT', onSignal);
  io.signals?.on('SIGTERM', onSignal);
  try {
    const end = await handle.result;
    if (pretty && adapter.id === 'demo' && !values.cwd) io.stdout.write(`workspace: ${cwd}\n`);
    return exitCodeFor(end.reason);
  } finally {
    pretty?.close();
    io.signals?.off('SIGINT', onSignal);
    io.signals?.off('SIGTERM', onSignal);
  }
}

/** The prompt: the arguments, or standard input for a lone `-`. Throws UsageError when it is empty. */
async function readPrompt(positionals: string[], stdin: NodeJS.ReadableStream): Promise<string> {
  const fromStdin = positionals.length === 1 && positionals[0] === '-';
  const prompt = (fromStdin ? await readAll(stdin) : positionals.join(' ')).trim();
  if (!prompt) throw new UsageError(fromStdin ? 'standard input held no prompt' : 'a prompt is required');
  return prompt;
}

/** Throws UsageError for a `--resume` without a session id, or one the adapter cannot resume. */
function checkResume(resume: string | undefined, adapter: Adapter): void {
  if (resume !== undefined && (resume === '' || !adapter.capabilities.resume)) {
    throw new UsageError(
      resume === '' ? '--resume takes a session id' : `${adapter.id} cannot resume a session (no resume capability)`,
    );
  }
}

/**
 * Who answers the run's approvals, as `--approve` says (`approve`): every one approved, every one
 * denied (saying how to allow them when that was not asked for, `byDefault`), or the user at the
 * terminal, with the pretty view's spinner paused while it asks.
 */
function approvalChannel(
  approve: string,
  byDefault: boolean,
  io: CliIO,
  pretty: PrettyRenderer | undefined,
  onInterrupt: () => void,
): ApprovalChannel {
  if (approve === 'all') return autoApprovalChannel('approve', { by: '--approve all' });
  if (approve === 'none') {
    return autoApprovalChannel('deny', {
      by: '--approve none',
      // Denied by default (no terminal to ask at): say how to allow them.
      ...(byDefault ? { reason: NO_TERMINAL_DENIAL } : {}),
    });
  }
  return terminalApprovalChannel({
    input: io.stdin,
    output: io.stderr,
    onAsk: (asking) => (asking ? pretty?.pause() : pretty?.resume()),
    onInterrupt,
  });
}

/** What SIGINT and SIGTERM do to the run: the first stops it, the next exits at once (130). */
function interruptHandler(stderr: CliIO['stderr'], handle: RunHandle): (signal: NodeJS.Signals) => void {
  let interrupts = 0;
  return (signal) => {
    interrupts++;
    if (interrupts === 1) {
      stderr.write(`\n${signal}: stopping the agent (again to force)\n`);
      handle.abort(`interrupted by ${signal}`);
    } else {
      process.exit(130);
    }
  };
}

const secondsOf = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts).toString('utf8');
}
