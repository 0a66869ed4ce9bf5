import { randomUUID } from 'node:crypto';
import { CostTracker } from '../cost/cost-tracker.ts';
import { agentEnvironment } from '../env/agent-environment.ts';
import type { EventDraft } from '../events/index.ts';
import { Redactor } from '../redact/redactor.ts';
import type { RunInput, SteerMessage } from './agent-input.ts';
import type { PauseControl } from './attempt-options.ts';
import { checkProgramVersion } from './check-program-version.ts';
import { collectSecrets } from './collect-secrets.ts';
import type { BudgetTarget, RunParts } from './run-attempt.ts';
import { RunEmitter } from './run-emitter.ts';
import { RunEvents } from './run-events.ts';
import { startRunMcp } from './run-mcp.ts';
import type { BudgetSpent, RunEnd, RunHandle, RunOptions } from './run-options.ts';
import { type RetriesEnd, runWithRetries } from './run-with-retries.ts';
import { armAbort } from './stop/abort.ts';
import { armBudget } from './stop/budget.ts';
import { leaseExpiry } from './stop/lease.ts';
import { RunStopper } from './stop/run-stopper.ts';

const DEFAULT_GRACE_MS = 5000;
const DEFAULT_TERMINAL_GRACE_MS = 2000;

/**
 * Starts one run of an agent. Events flow to `onEvent` and to `events` (read it right away:
 * events are buffered from the moment it is first read). Exactly one `run_end` ends the stream.
 * Every stop cause (timeout, inactivity, abort, lease, budget: see `./stop/`) ends the run through
 * one `RunStopper`; retries follow `RunOptions.retry` unless a stop was asked for.
 */
export function startRun(options: RunOptions): RunHandle {
  const runId = options.runId ?? `run_${randomUUID()}`;
  const adapter = options.adapter;
  const hostEnv = options.env ?? process.env;
  // Only the adapter's own keys open the allowlist; `options.secretEnv` names values to redact.
  const env = options.isolateEnv
    ? agentEnvironment(hostEnv, { secretEnv: adapter.secretEnv, extra: options.isolateEnv.extra })
    : hostEnv;
  const debug = options.debug ?? false;
  const abort = new AbortController();
  const redactor = options.redactor ?? new Redactor();
  redactor.addSecrets(collectSecrets(options, hostEnv));
  const emitter = new RunEmitter({
    runId,
    agent: adapter.id,
    debug,
    redactor,
    costs: new CostTracker({ costModel: options.costModel ?? adapter.costModel, pricing: options.pricing }),
    onEvent: options.onEvent,
  });
  const tools =
    typeof options.tools === 'function'
      ? options.tools({ runId, emit: (draft) => emitter.emit(draft) })
      : options.tools;
  const events = new RunEvents(emitter);
  const stopper = new RunStopper((draft) => emitter.emit(draft));
  const unarmAbort = armAbort([options.signal, abort.signal], stopper.requestStop);
  let target: BudgetTarget | undefined;
  let pauseControl: PauseControl | undefined;
  let agentInput: RunInput | undefined;
  /** Messages for an agent that takes them, given before it started (or between attempts). */
  const early: SteerMessage[] = [];
  let finished = false;
  let inputOpened = false;
  const raise = options.onBudgetSpent
    ? {
        ask: (spent: BudgetSpent) => options.onBudgetSpent?.(spent, abort.signal) ?? Promise.resolve(undefined),
        control: () => pauseControl,
      }
    : undefined;
  emitter.onCost = armBudget(
    options.budget,
    (remaining) => target?.onBudget?.(remaining),
    stopper.requestStop,
    (draft: EventDraft) => emitter.emit(draft),
    raise,
    options.budgetCeiling,
  );

  const startedAt = Date.now();
  const result = (async (): Promise<RunEnd> => {
    await new Promise((resolve) => setImmediate(resolve)); // let the caller attach to `events` first
    const mcp = await startRunMcp(options, { runId, tools, emitter, redactor });
    await warnOfProgramVersion(options, emitter);
    const run: RunParts = {
      options,
      runId,
      env,
      debug,
      graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
      terminalGraceMs: options.terminalGraceMs ?? DEFAULT_TERMINAL_GRACE_MS,
      startedAt,
      emitter,
      events,
      stopper,
      tools,
      approvals: options.approvals,
      mcp,
      signal: abort.signal,
      onPauseControl: (control) => {
        pauseControl = control;
      },
      onInput: (input) => {
        agentInput = input;
        if (input === undefined) return;
        inputOpened = true;
        // Messages given before the agent started go in right after its prompt.
        for (const message of early.splice(0)) input.send(message);
      },
    };
    let ended: RetriesEnd;
    try {
      ended = await runWithRetries(run, (value) => {
        target = value;
      });
    } finally {
      unarmAbort();
      await mcp.server?.close().catch(() => undefined);
    }
    finished = true;
    const end = emitter.end(runEndDraft(ended, startedAt));
    events.close();
    return end;
  })();

  return {
    runId,
    events,
    result,
    abort: (reason?: string) => abort.abort(reason ?? 'aborted'),
    expireLease: leaseExpiry(stopper.requestStop),
    steer: (message) => {
      // Before the agent's first start only: once an attempt has ended, a message waits for the next turn.
      if (agentInput === undefined && !inputOpened && !finished && takesInput(options.adapter)) {
        early.push(message);
        return { kind: 'delivered' };
      }
      const outcome = agentInput?.send(message) ?? {
        kind: 'queued',
        reason: takesInput(options.adapter)
          ? 'the agent is not running now'
          : 'this agent takes no message while it runs',
      };
      // Said in the run (ignored once it has ended): where the message would have entered it.
      if (outcome.kind === 'queued') emitter.emit(queuedNotice(message, outcome.reason));
      return outcome;
    },
  };
}

/** The notice of a message that waits for the next turn. */
function queuedNotice(message: SteerMessage, reason: string): EventDraft {
  const from = message.from ? ` from ${message.from}` : '';
  return { type: 'notice', code: 'steer_queued', message: `a message${from} is queued for the next turn: ${reason}` };
}

/** Whether the adapter's agent may take messages mid-run at all (a plan with `input`, or a session that steers). */
function takesInput(adapter: RunOptions['adapter']): boolean {
  return adapter.capabilities?.steering === true;
}

/** Emits a warning when a process agent's program is older than its adapter's minimum (unless `checkVersion` is false). */
async function warnOfProgramVersion(options: RunOptions, emitter: RunEmitter): Promise<void> {
  const adapter = options.adapter;
  if (adapter.program && adapter.launch.kind === 'process' && options.checkVersion !== false) {
    const warning = await checkProgramVersion(adapter.program, options.programVersion);
    if (warning) emitter.emit(warning);
  }
}

/** The run's end, as its last attempt ended. */
function runEndDraft({ last, attempts }: RetriesEnd, startedAt: number): Parameters<RunEmitter['end']>[0] {
  return {
    type: 'run_end',
    reason: last.reason,
    message: last.message,
    exitCode: last.exitCode,
    signal: last.signal,
    durationMs: Date.now() - startedAt,
    sessionId: last.sessionId,
    output: last.output,
    attempts,
  };
}
