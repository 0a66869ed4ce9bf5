import { randomUUID } from 'node:crypto';
import type { AgentSession, ExitInfo, SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import type { ApprovalChannel, ApprovalDecision } from '../../../core/tools/approval-channel.ts';
import { closeTextMessage } from '../generic-cli/text-output-translator.ts';
import type { ExternalHost, ExternalSessionSink } from './external-host.ts';
import type { ExternalCommand, ExternalMessageOf } from './external-protocol.ts';
import {
  type ExternalSessionState,
  externalApprovalId,
  externalPermissionInput,
  initExternalSessionState,
  translateExternalMessage,
} from './external-translator.ts';

/**
 * One run as one session of the shared adapter process: `session.start`, `user.input` with the prompt,
 * then the session's messages until `turn.complete` (no need to wait for any EOF), then `session.close`.
 * Permission requests go to the run's approval channel (none: denied) and are answered with
 * `permission.response`. Stopping sends `stop` then `session.close`. If the process dies, the run ends
 * `crashed`, with a `crash` event carrying the process's stderr tail; `dispose()` fails it.
 */
export async function openExternalSession(host: ExternalHost, ctx: SessionContext): Promise<AgentSession> {
  const sessionId = randomUUID();
  const local = new AbortController();
  const signal = AbortSignal.any([ctx.signal, local.signal]);
  let settled = false;
  let resolveDone: (outcome: SessionOutcome) => void = () => undefined;
  const done = new Promise<SessionOutcome>((resolve) => {
    resolveDone = resolve;
  });
  const run: ExternalRun = {
    ctx,
    sessionId,
    state: initExternalSessionState(ctx.debug, sessionId),
    signal,
    grants: new Set<string>(),
    settled: () => settled,
    emit: (draft) => {
      if (!settled) ctx.emit(draft);
    },
    send: (command) => host.send(command).catch(() => undefined),
    finish: (outcome, after = []) => {
      if (settled) return;
      for (const draft of [...closeTextMessage(run.state), ...after]) ctx.emit(draft);
      settled = true;
      host.detach(sessionId);
      local.abort('session ended');
      signal.removeEventListener('abort', onAbort);
      resolveDone({ ...outcome, sessionId });
    },
  };

  const stop = async (why: string) => {
    if (settled) return;
    run.finish({ status: 'failed', message: `stopped (${why})` });
    await run.send({ type: 'stop', session_id: sessionId });
    await run.send({ type: 'session.close', session_id: sessionId });
  };
  const onAbort = () => void stop('aborted');

  try {
    await host.attach(sessionId, externalSink(run), ctx);
  } catch (error) {
    const message = (error as Error).message;
    ctx.emit({ type: 'error', code: 'spawn_failed', message, recoverable: false });
    settled = true;
    return { done: Promise.resolve({ status: 'failed', message }), stop: async () => undefined };
  }
  if (!settled) {
    signal.addEventListener('abort', onAbort, { once: true });
    ctx.emit({ type: 'session_start', sessionId, cwd: ctx.request.cwd });
    ctx.emit({ type: 'turn_start', turn: 0 });
    void sendOpening(run);
    if (signal.aborted) onAbort();
  }
  return { done, stop: (reason) => stop(reason) };
}

/** What the steps of one external session share. */
interface ExternalRun {
  readonly ctx: SessionContext;
  readonly sessionId: string;
  readonly state: ExternalSessionState;
  /** The run's signal, or the session's own end. */
  readonly signal: AbortSignal;
  /** Tools approved with scope `always` in this run. */
  readonly grants: Set<string>;
  /** Whether the outcome is given: nothing is emitted after it. */
  settled(): boolean;
  /** Emits an event while the session is not settled. */
  emit(draft: EventDraft): void;
  /** Sends a command to the process; a failed send is dropped. */
  send(command: ExternalCommand): Promise<void>;
  /** Gives the outcome, once: the open message closed, `after` emitted, the session detached. */
  finish(outcome: Omit<SessionOutcome, 'sessionId'>, after?: EventDraft[]): void;
}

/** The session's opening: `session.start`, a `file.input` for each of the request's files, `user.input` with the prompt. */
async function sendOpening({ ctx, sessionId, send }: ExternalRun): Promise<void> {
  await send({ type: 'session.start', session_id: sessionId });
  for (const file of ctx.request.files ?? []) {
    await send({
      type: 'file.input',
      session_id: sessionId,
      file_name: file.name,
      file_mime_type: file.mimeType ?? 'application/octet-stream',
      file_path: file.path,
    });
  }
  await send({ type: 'user.input', session_id: sessionId, content: ctx.request.prompt });
}

/**
 * What the host tells this session: messages translated (a permission request answered,
 * `turn.complete` ending the run), the process's death ending it `crashed`, the host's disposal failing it.
 */
function externalSink(run: ExternalRun): ExternalSessionSink {
  const { ctx, sessionId } = run;
  return {
    message(message) {
      if (run.settled()) return;
      for (const draft of translateExternalMessage(message, run.state)) run.emit(draft);
      if (message.type === 'permission.request') void answerPermission(run, message);
      if (message.type === 'turn.complete') {
        run.finish({ status: 'completed' });
        void run.send({ type: 'session.close', session_id: sessionId });
      }
    },
    unknown(type, value) {
      if (ctx.debug)
        run.emit({
          type: 'debug',
          message: `unknown external adapter message type ${JSON.stringify(type)}`,
          data: value,
        });
    },
    broadcast: run.emit,
    exit(exit, stderrTail) {
      run.finish({ status: 'failed', reason: 'crashed', message: `the external adapter process ${howItEnded(exit)}` }, [
        { type: 'crash', exitCode: exit.exitCode, signal: exit.signal, stderr: stderrTail },
      ]);
    },
    disposed(message) {
      run.finish({ status: 'failed', message });
    },
  };
}

function howItEnded(exit: ExitInfo): string {
  if (exit.signal) return `was killed by ${exit.signal}`;
  return exit.exitCode === null ? 'is gone' : `exited with code ${exit.exitCode}`;
}

/** A permission request decided, the decision emitted, and answered with `permission.response`. */
async function answerPermission(run: ExternalRun, message: ExternalMessageOf<'permission.request'>): Promise<void> {
  const approvalId = externalApprovalId(run.sessionId, message.request_id);
  const toolName = message.tool || 'unknown';
  const channel = run.ctx.approvals;
  let decision: ApprovalDecision;
  if (run.grants.has(toolName)) {
    decision = { kind: 'approve', scope: 'always', by: 'an earlier "always" approval in this run' };
  } else if (!channel) {
    decision = { kind: 'deny', reason: 'no approval channel is configured for this run' };
  } else {
    decision = await askApproval(run, channel, approvalId, toolName, message);
  }
  if (run.settled()) return;
  if (decision.kind === 'approve') {
    if (decision.scope === 'always') run.grants.add(toolName);
    run.emit({ type: 'approval_granted', approvalId, scope: decision.scope, by: decision.by });
  } else {
    run.emit({
      type: 'approval_denied',
      approvalId,
      reason: decision.reason,
      by: decision.by,
      ...(decision.timedOut === undefined ? {} : { timedOut: decision.timedOut }),
    });
  }
  await run.send({
    type: 'permission.response',
    session_id: run.sessionId,
    request_id: message.request_id,
    approved: decision.kind === 'approve',
  });
}

/** The run's approval channel asked; a channel that fails denies. */
function askApproval(
  { ctx, signal }: ExternalRun,
  channel: ApprovalChannel,
  approvalId: string,
  toolName: string,
  message: ExternalMessageOf<'permission.request'>,
): Promise<ApprovalDecision> {
  return channel
    .request(
      {
        approvalId,
        runId: ctx.runId,
        toolName,
        input: externalPermissionInput(message),
        ...(message.description ? { reason: message.description } : {}),
      },
      signal,
    )
    .catch((error: unknown) => ({
      kind: 'deny' as const,
      reason: `the approval channel failed: ${(error as Error)?.message ?? String(error)}`,
    }));
}
