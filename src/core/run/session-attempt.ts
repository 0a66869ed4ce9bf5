import type { AgentSession, SessionLaunch } from '../adapter/index.ts';
import type { AttemptOptions } from './attempt-options.ts';
import type { AttemptResult, StopRequest } from './attempt-result.ts';
import { settleWithin } from './settle-within.ts';

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
  const { launch, ctx, emitter } = options;
  const sessionAbort = new AbortController();
  const onAbort = () => sessionAbort.abort();
  options.signal.addEventListener('abort', onAbort, { once: true });
  let stopRequest: StopRequest | undefined;
  let session: AgentSession | undefined;
  let stopping: Promise<void> | undefined;

  const stop = (request: StopRequest) => {
    if (stopRequest) return;
    stopRequest = request;
    const current = session;
    stopping = (async () => {
      if (current) {
        const stopped = current.stop(request.shutdown).catch(() => undefined);
        const inTime = await settleWithin(
          stopped.then(() => true),
          options.graceMs,
          false,
        );
        if (inTime) return;
      }
      sessionAbort.abort();
    })();
  };
  options.onStopper(stop);

  try {
    session = await launch.open({
      ...ctx,
      emit: (draft) => {
        options.onActivity();
        emitter.emit(draft);
      },
      signal: sessionAbort.signal,
      tools: options.tools,
      approvals: options.approvals,
    });
    options.onSession?.(session);
    if (stopRequest) {
      const pending = stopRequest;
      stopRequest = undefined;
      stop(pending);
    }
    const abortedEarly = new Promise<never>((_, reject) => {
      sessionAbort.signal.addEventListener('abort', () => reject(new Error('session aborted')), { once: true });
    });
    abortedEarly.catch(() => undefined);
    const outcome = await Promise.race([session.done, abortedEarly]);
    if (stopping) await stopping;
    const stopped = stopRequest as StopRequest | undefined;
    if (stopped) {
      // After a lease expiry the session may say how the stop went (a remote that ignored it): keep both.
      const detail =
        stopped.shutdown === 'lease_expired' && outcome.status === 'failed' && outcome.message
          ? `: ${outcome.message}`
          : '';
      return { reason: stopped.reason, message: `${stopped.message}${detail}`, sessionId: outcome.sessionId };
    }
    return {
      reason: outcome.reason ?? (outcome.status === 'completed' ? 'completed' : 'failed'),
      message: outcome.message,
      output: outcome.output,
      sessionId: outcome.sessionId,
    };
  } catch (error) {
    if (stopping) await stopping;
    const stopped = stopRequest as StopRequest | undefined;
    if (stopped) return { reason: stopped.reason, message: stopped.message };
    const message = (error as Error).message;
    emitter.emit({ type: 'error', code: 'agent_error', message, recoverable: false });
    return { reason: 'failed', message };
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}
