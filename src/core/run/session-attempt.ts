import type { AgentSession, Outcome, SessionContext, SessionLaunch, SessionOutcome } from '../adapter/index.ts';
import type { AttemptOptions } from './attempt-options.ts';
import type { AttemptResult, StopRequest } from './attempt-result.ts';
import { settleWithin } from './settle-within.ts';
import { gracefulStop } from './stop/graceful-stop.ts';
import { TerminalGrace } from './stop/terminal-grace.ts';

export interface SessionAttemptOptions extends AttemptOptions<SessionLaunch> {
  /** The open session, for budget updates; undefined once the attempt is over. */
  onSession?: (session: AgentSession | undefined) => void;
}

/** Runs an in-process or remote agent session once, with the same stop semantics as a process. */
export async function runSessionAttempt(options: SessionAttemptOptions): Promise<AttemptResult> {
  try {
    return await runSession(options);
  } finally {
    options.onSession?.(undefined);
  }
}

async function runSession(options: SessionAttemptOptions): Promise<AttemptResult> {
  const { launch, emitter } = options;
  const sessionAbort = new AbortController();
  const onAbort = () => sessionAbort.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  let stopRequest: StopRequest | undefined;
  let session: AgentSession | undefined;
  let stopping: Promise<void> | undefined;

  // The agent said it is done: the session may settle by itself within the terminal grace; then its
  // signal is aborted (close the stream, delete the remote session) and the run ends as the agent said.
  let terminal: Outcome | undefined;
  /** The core ended the session after its terminal event (the grace ran out, or a stop came after it). */
  let endedByTerminal = false;
  const grace = new TerminalGrace({
    terminalGraceMs: options.terminalGraceMs,
    graceMs: options.graceMs,
    onGraceOver: () => {
      endedByTerminal = true;
      sessionAbort.abort();
    },
  });
  const terminalReached = (outcome: Outcome) => {
    if (grace.reach()) terminal = { ...outcome };
  };

  const stop = (request: StopRequest) => {
    if (stopRequest) return;
    stopRequest = request;
    if (terminal) endedByTerminal = true;
    grace.stop();
    const current = session;
    stopping = gracefulStop({
      ask: () => current?.stop(request.shutdown).catch(() => undefined),
      waitMs: options.graceMs,
      force: () => sessionAbort.abort(),
    }).then(() => undefined);
  };
  options.onStopper(stop);

  try {
    session = await launch.open(sessionContext(options, sessionAbort.signal, terminalReached));
    options.onSession?.(session);
    if (stopRequest) {
      const pending = stopRequest;
      stopRequest = undefined;
      stop(pending);
    }
    const abortedEarly = whenAborted(sessionAbort.signal, session, () => terminal, grace.settleMs);
    const outcome = await Promise.race([session.done, abortedEarly]);
    grace.stop();
    if (stopping) await stopping;
    const stopped = stopRequest as StopRequest | undefined;
    if (terminal && endedByTerminal) return asSaid(terminal, outcome.sessionId);
    return stopped ? asStopped(stopped, outcome) : asOutcome(outcome);
  } catch (error) {
    if (stopping) await stopping;
    if (terminal && endedByTerminal) return asSaid(terminal);
    const stopped = stopRequest as StopRequest | undefined;
    if (stopped) return { reason: stopped.reason, message: stopped.message };
    const message = (error as Error).message;
    emitter.emit({ type: 'error', code: 'agent_error', message, recoverable: false });
    return { reason: 'failed', message };
  } finally {
    grace.stop();
    options.signal.removeEventListener('abort', onAbort);
  }
}

/** The run's end as the agent's terminal event said. */
function asSaid(outcome: Outcome, sessionId?: string): AttemptResult {
  return { reason: outcome.status, message: outcome.message, output: outcome.output, sessionId };
}

/** The context the session opens with: the launch's, with the attempt's signal, tools and approvals; what it emits counts as activity. */
function sessionContext(
  options: SessionAttemptOptions,
  signal: AbortSignal,
  terminalReached: (outcome: Outcome) => void,
): SessionContext {
  return {
    ...options.ctx,
    emit: (draft) => {
      options.onActivity();
      options.emitter.emit(draft);
    },
    signal,
    tools: options.tools,
    approvals: options.approvals,
    terminalReached,
  };
}

/**
 * Settles when `signal` aborts: after the agent said it is done (`said()`), as `session.done` does
 * within `settleMs`, else as the agent said; otherwise it rejects (`session aborted`). Its
 * rejection is handled, for when the race it joins is won by `done`.
 */
function whenAborted(
  signal: AbortSignal,
  session: AgentSession,
  said: () => Outcome | undefined,
  settleMs: number,
): Promise<SessionOutcome> {
  const aborted = new Promise<SessionOutcome>((resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => {
        // Aborted after the agent said it is done: give `done` a short while to settle with it.
        const outcome = said();
        if (outcome) resolve(settleWithin(session.done, settleMs, outcome));
        else reject(new Error('session aborted'));
      },
      { once: true },
    );
  });
  aborted.catch(() => undefined);
  return aborted;
}

/** The end of a session the core stopped: the stop's reason and message. */
function asStopped(stopped: StopRequest, outcome: SessionOutcome): AttemptResult {
  // After a lease expiry the session may say how the stop went (a remote that ignored it): keep both.
  const detail =
    stopped.shutdown === 'lease_expired' && outcome.status === 'failed' && outcome.message
      ? `: ${outcome.message}`
      : '';
  return { reason: stopped.reason, message: `${stopped.message}${detail}`, sessionId: outcome.sessionId };
}

/** The end of a session that ended by itself, as its outcome says. */
function asOutcome(outcome: SessionOutcome): AttemptResult {
  return {
    reason: outcome.reason ?? (outcome.status === 'completed' ? 'completed' : 'failed'),
    message: outcome.message,
    output: outcome.output,
    sessionId: outcome.sessionId,
  };
}
