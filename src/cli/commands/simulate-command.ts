import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createBuiltinRegistry } from '../../adapters/builtin-registry.ts';
import { didYouMean } from '../../core/errors/did-you-mean.ts';
import type { AgentEvent } from '../../core/events/index.ts';
import type { RepoRole } from '../../github/github-api.ts';
import { renderSimulation } from '../../simulate/render-simulation.ts';
import { type SimulateEventOptions, simulateEvent } from '../../simulate/simulate-event.ts';
import { isSimulatedEventName, SIMULATED_EVENT_NAMES } from '../../simulate/simulated-event-names.ts';
import { simulationExitCode } from '../../simulate/simulation-report.ts';
import { SimulationSetupError } from '../../simulate/simulation-setup-error.ts';
import type { CliIO } from '../cli-io.ts';
import { exitCodes } from '../exit-codes.ts';
import { parseCommandArgs } from '../parse-command-args.ts';
import { jsonRenderer } from '../render/json-renderer.ts';
import { type PrettyRenderer, prettyRenderer } from '../render/pretty-renderer.ts';
import { UsageError } from '../usage-error.ts';
import { loadRegistry } from './load-registry.ts';

export const simulateUsage = `Usage: agent-mux simulate --event <name> --payload <file.json> [options]

Runs the whole GitHub pipeline (trigger, trust, repository config, run, branch, pull request) for
one webhook payload against an in-process GitHub stand-in, and prints what GitHub would receive:
the decision, the comments, the check runs, the reactions, the pull request and the pushed branch.
The repository is never changed: a temporary bare clone of it stands in for GitHub's git server.
.github/agent-mux.yml is read from its default branch (committed content only, see --repo-config).

The run's events are shown as they happen (the live view of \`agent-mux run\`), then the report:
notes on what the payload did not say, the decision, the run, the comments, the replies in review
threads, the check runs, the reactions, the pull request and the pushed branch.

Try it: agent-mux simulate --event issue_comment --payload examples/payloads/issue_comment.json

Options:
  --event <name>         the webhook event: issue_comment, pull_request_review_comment,
                         pull_request_review, issues, pull_request, workflow_dispatch (others never start a run)
  --payload <file>       the webhook payload (JSON), e.g. copied from a repository's webhook
                         deliveries, or a sample from examples/payloads/<event>.json (one per
                         event, each asking the demo agent, so it runs with no key); owner/name
                         come from its repository, issue or pull request number and title from
                         it too. A pull request's head branch the repository lacks is made, under
                         its name, at the default branch's head, and a note says so
  --repo <path>          the git checkout to simulate on (default: the current directory)
  --config <file>        a file of adapters and defaults ({ "adapters": { … } }), JSON or YAML (as for run)
  --repo-config <file>   serve this file as .github/agent-mux.yml on the default branch (try an
                         uncommitted config change)
  --default-branch <b>   the default branch (default: origin/HEAD's branch, else the current one)
  --as <login>           act as this user instead of the payload's sender
  --as-role <role>       the actor's role: none, read, triage, write, maintain, admin (default write)
  --approve <mode>       all: a simulated approver (simulated-approver, admin) approves every
                         tool approval (default); none: every approval is denied
  --keep                 keep the temporary bare repository and print where it is
  --json                 print JSON lines instead: the run's events as they happen (as run --json
                         prints them), then the report as the last line, {"type":"simulation_report",…}
  -h, --help             this text

Exit code: 0 when the pipeline ran and nothing failed (ignored, refused, or the run concluded
success), 1 when the run concluded failure, cancelled, timed_out or neutral (it changed nothing
after its attempts to change were refused), 2 for bad usage, an unreadable
payload or repository, or an invalid repository config.`;

const roles: readonly RepoRole[] = ['none', 'read', 'triage', 'write', 'maintain', 'admin'];

/** `agent-mux simulate`: returns the exit code. */
export async function simulateCommand(argv: string[], io: CliIO): Promise<number> {
  const args = simulateArgs(argv);
  if (args === undefined) {
    io.stdout.write(`${simulateUsage}\n`);
    return 0;
  }
  const fail = (message: string) => {
    io.stderr.write(`agent-mux simulate: ${message}\n`);
    return exitCodes.usage;
  };
  const inputs = await readInputs(io.cwd, args);
  if ('error' in inputs) return fail(inputs.error);

  const { config } = await loadRegistry(args.config, io.cwd);
  const registry = () => {
    const r = createBuiltinRegistry();
    if (config && args.config) r.loadConfig(config, args.config);
    return r;
  };
  const view = eventView(io, args.json);
  let report: Awaited<ReturnType<typeof simulateEvent>>;
  const abort = new AbortController();
  const onSignal = () => abort.abort(new Error('interrupted'));
  io.signals?.on('SIGINT', onSignal);
  try {
    report = await simulateEvent({
      eventName: args.event,
      payload: inputs.payload,
      repoPath: resolve(io.cwd, args.repo ?? '.'),
      registry,
      approve: args.approve,
      as: args.as,
      asRole: args.asRole,
      repoConfigText: inputs.repoConfigText,
      defaultBranch: args['default-branch'],
      keep: args.keep,
      env: io.env,
      signal: abort.signal,
      onEvent: view.onEvent,
    });
  } catch (error) {
    if (SimulationSetupError.isInstance(error)) return fail(error.message);
    throw error;
  } finally {
    view.close();
    io.signals?.off('SIGINT', onSignal);
  }
  io.stdout.write(
    args.json
      ? `${JSON.stringify({ type: 'simulation_report', ...report })}\n`
      : `${view.started() ? '\n' : ''}${renderSimulation(report)}`,
  );
  return simulationExitCode(report);
}

/**
 * The command line, checked: the options with the event, the payload, `--approve` and `--as-role`
 * narrowed to what they may be; undefined for `--help`.
 *
 * @throws UsageError for an unexpected argument, a missing or unknown event, a missing payload, or a bad mode or role.
 */
function simulateArgs(argv: string[]) {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    options: {
      event: { type: 'string' },
      payload: { type: 'string' },
      repo: { type: 'string' },
      config: { type: 'string' },
      'repo-config': { type: 'string' },
      'default-branch': { type: 'string' },
      as: { type: 'string' },
      'as-role': { type: 'string' },
      approve: { type: 'string', default: 'all' },
      keep: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return undefined;
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (!values.event) throw new UsageError('--event is required');
  if (!isSimulatedEventName(values.event)) {
    const suggestion = didYouMean(values.event, SIMULATED_EVENT_NAMES);
    throw new UsageError(
      `unknown event "${values.event}"${suggestion ? ` (did you mean ${suggestion}?)` : ''}; --event takes one of ${SIMULATED_EVENT_NAMES.join(', ')}`,
    );
  }
  if (!values.payload) throw new UsageError('--payload is required');
  const approve: SimulateEventOptions['approve'] | undefined =
    values.approve === 'all' || values.approve === 'none' ? values.approve : undefined;
  if (approve === undefined) throw new UsageError('--approve takes all or none');
  const asRole = values['as-role'];
  if (asRole !== undefined && !roles.includes(asRole as RepoRole)) {
    throw new UsageError(`--as-role takes one of ${roles.join(', ')}`);
  }
  return { ...values, event: values.event, payload: values.payload, approve, asRole: asRole as RepoRole | undefined };
}

/** The payload (JSON) and the repository config's text the options name, or why they cannot be had. */
async function readInputs(
  cwd: string,
  args: { payload: string; 'repo-config'?: string },
): Promise<{ payload: unknown; repoConfigText: string | undefined } | { error: string }> {
  const payloadText = await readText(cwd, args.payload);
  if (typeof payloadText !== 'string')
    return { error: `cannot read the payload ${args.payload}: ${payloadText.error}` };
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch (error) {
    return { error: `the payload ${args.payload} is not JSON: ${(error as Error).message}` };
  }
  const repoConfig = args['repo-config'];
  if (repoConfig === undefined) return { payload, repoConfigText: undefined };
  const text = await readText(cwd, repoConfig);
  if (typeof text !== 'string') return { error: `cannot read the repository config ${repoConfig}: ${text.error}` };
  return { payload, repoConfigText: text };
}

/**
 * Where the run's events go as they happen: JSON lines (`--json`), else the live view of
 * `agent-mux run`, started by the run's first event (which names the agent).
 */
function eventView(
  io: CliIO,
  json: boolean,
): { onEvent: (event: AgentEvent) => void; started: () => boolean; close: () => void } {
  let live: PrettyRenderer | undefined;
  const color = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR;
  const onEvent = json
    ? jsonRenderer(io.stdout)
    : (event: AgentEvent) => {
        live ??= prettyRenderer({ out: io.stdout, status: io.stderr, color, adapter: event.agent, verbose: false });
        live.onEvent(event);
      };
  return { onEvent, started: () => live !== undefined, close: () => live?.close() };
}

async function readText(cwd: string, path: string): Promise<string | { error: string }> {
  try {
    return await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'file not found' : (error as Error).message };
  }
}
