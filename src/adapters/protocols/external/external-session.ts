import { randomUUID } from 'node:crypto';
import type { AgentSession, SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import type { EventDraft } from '../../../core/events/index.ts';
import type { ApprovalDecision } from '../../../core/tools/approval-channel.ts';
import { closeTextMessage } from '../generic-cli/text-output-translator.ts';
import type { ExternalHost, ExternalSessionSink } from './external-host.ts';
import type { ExternalMessageOf } from './external-protocol.ts';
import {
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
  const state = initExternalSessionState(ctx.debug, sessionId);
  const local = new AbortController();
  const signal = AbortSignal.any([ctx.signal, local.signal]);
  /** Tools approved with scope `always` in this run. */
  const grants = new Set<string>();
  let settled = false;
  let resolveDone: (outcome: SessionOutcome) => void = () => undefined;
  const done = new Promise<SessionOutcome>((resolve) => {
    resolveDone = resolve;
  });
  const emit = (draft: EventDraft) => {
    if (!settled) ctx.emit(draft);
  };
  const send = (command: Parameters<ExternalHost['send']>[0]) => host.send(command).catch(() => undefined);

  const finish = (outcome: Omit<SessionOutcome, 'sessionId'>, after: EventDraft[] = []) => {
    if (settled) return;
    for (const draft of [...closeTextMessage(state), ...after]) ctx.emit(draft);
    settled = true;
    host.detach(sessionId);
    local.abort('session ended');
    signal.removeEventListener('abort', onAbort);
    resolveDone({ ...outcome, sessionId });
  };

  const answerPermission = async (message: ExternalMessageOf<'permission.request'>) => {
    const approvalId = externalApprovalId(sessionId, message.request_id);
    const toolName = message.tool || 'unknown';
    let decision: ApprovalDecision;
    if (grants.has(toolName)) {
      decision = { kind: 'approve', scope: 'always', by: 'an earlier "always" approval in this run' };
    } else if (!ctx.approvals) {
      decision = { kind: 'deny', reason: 'no approval channel is configured for this run' };
    } else {
      decision = await ctx.approvals
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
    if (settled) return;
    if (decision.kind === 'approve') {
      if (decision.scope === 'always') grants.add(toolName);
      emit({ type: 'approval_granted', approvalId, scope: decision.scope, by: decision.by });
    } else {
      emit({
        type: 'approval_denied',
        approvalId,
        reason: decision.reason,
        by: decision.by,
        ...(decision.timedOut === undefined ? {} : { timedOut: decision.timedOut }),
      });
    }
    await send({
      type: 'permission.response',
      session_id: sessionId,
      request_id: message.request_id,
      approved: decision.kind === 'approve',
    });
  };

  const sink: ExternalSessionSink = {
    message(message) {
      if (settled) return;
      for (const draft of translateExternalMessage(message, state)) emit(draft);
      if (message.type === 'permission.request') void answerPermission(message);
      if (message.type === 'turn.complete') {
        finish({ status: 'completed' });
        void send({ type: 'session.close', session_id: sessionId });
      }
    },
    unknown(type, value) {
      if (ctx.debug)
        emit({ type: 'debug', message: `unknown external adapter message type ${JSON.stringify(type)}`, data: value });
    },
    broadcast: emit,
    exit(exit, stderrTail) {
      const how = exit.signal
        ? `was killed by ${exit.signal}`
        : exit.exitCode === null
          ? 'is gone'
          : `exited with code ${exit.exitCode}`;
      finish({ status: 'failed', reason: 'crashed', message: `the external adapter process ${how}` }, [
        { type: 'crash', exitCode: exit.exitCode, signal: exit.signal, stderr: stderrTail },
      ]);
    },
    disposed(message) {
      finish({ status: 'failed', message });
    },
  };

  const stop = async (why: string) => {
    if (settled) return;
    finish({ status: 'failed', message: `stopped (${why})` });
    await send({ type: 'stop', session_id: sessionId });
    await send({ type: 'session.close', session_id: sessionId });
  };
  const onAbort = () => void stop('aborted');

  try {
    await host.attach(sessionId, sink, ctx);
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
    void (async () => {
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
    })();
    if (signal.aborted) onAbort();
  }
  return { done, stop: (reason) => stop(reason) };
}
