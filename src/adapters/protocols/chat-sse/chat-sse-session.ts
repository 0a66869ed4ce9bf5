import type {
  AgentSession,
  SessionContext,
  SessionOutcome,
  Translator,
  TranslatorState,
} from '../../../core/adapter/index.ts';
import type { ErrorCode, EventDraft } from '../../../core/events/index.ts';
import { RecordPipeline } from '../../../core/run/record-pipeline.ts';
import type { ApprovalDecision } from '../../../core/tools/approval-channel.ts';
import { awaitApproval } from '../../../core/tools/await-approval.ts';
import { decide } from '../../../core/tools/permission-policy.ts';
import { httpStatusErrorCode } from '../../../core/transport/http-status-error-code.ts';
import { readSse } from '../../../core/transport/read-sse.ts';
import { SessionStop } from '../../shared/session-stop.ts';
import { authHeaders, type ChatSseOptions, chatSseRequestBody, endpoint } from './chat-sse-request.ts';
import {
  type ChatSseRelay,
  type ChatSseState,
  closeOpenBlock,
  initialChatSseState,
  translateChatSse,
} from './chat-sse-translator.ts';
import { httpErrorDetail } from './http-error-detail.ts';

const DEFAULT_APPROVAL_TIMEOUT_MS = 15 * 60_000;

/**
 * One run against llm-gateway's agent server: `POST /chat`, its SSE stream translated as it
 * arrives, permission relays answered through the run's policy and approval channel.
 */
export async function openChatSseSession(ctx: SessionContext, options: ChatSseOptions): Promise<AgentSession> {
  const pipeline = new RecordPipeline({
    translator: chatSseRecords(ctx.request.model ?? options.model),
    protocol: 'json-lines',
    debug: ctx.debug,
    request: ctx.request,
    clock: ctx.clock,
    name: 'chat-sse',
    emit: (draft) => ctx.emit(draft),
  });
  const stop = new SessionStop(ctx.signal);
  const failController = new AbortController();
  const fetchSignal = AbortSignal.any([stop.signal, failController.signal]);
  // Close a block in flight at once, before the run's end is recorded.
  stop.signal.addEventListener('abort', () => emitAll(ctx, closeOpenBlock(pipeline.state.chat)), { once: true });
  return stop.session(runChat({ ctx, options, pipeline, stop, failController, fetchSignal }));
}

/** What the steps of one chat-sse run share. */
interface ChatRun {
  readonly ctx: SessionContext;
  readonly options: ChatSseOptions;
  readonly pipeline: RecordPipeline<ChatSseRecords>;
  readonly stop: SessionStop;
  /** Aborted when answering a relay failed: the stream is dropped. */
  readonly failController: AbortController;
  /** The stop's signal, or the failed relay's: every request of the run takes it. */
  readonly fetchSignal: AbortSignal;
}

/** `POST /chat` and its stream read to the end, each relay answered as it comes. */
async function runChat(run: ChatRun): Promise<SessionOutcome> {
  const { ctx, options, pipeline, stop, fetchSignal } = run;
  const auth = authHeaders(options.auth, ctx.env);
  if ('error' in auth) return fail(run, 'auth', auth.error);
  let response: Response;
  try {
    response = await fetch(endpoint(options.baseUrl, 'chat'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...auth.headers },
      body: JSON.stringify(chatSseRequestBody(ctx, options)),
      signal: fetchSignal,
    });
  } catch (error) {
    if (stop.stopped) return stopped(run);
    return fail(run, 'remote_unavailable', `cannot reach the chat-sse server at ${options.baseUrl}: ${causeOf(error)}`);
  }
  if (!response.ok) {
    const detail = await httpErrorDetail(response);
    return fail(
      run,
      httpStatusErrorCode(response.status),
      `the chat-sse server rejected the request (HTTP ${response.status}): ${detail}`,
    );
  }
  if (!response.body) return fail(run, 'remote_unavailable', 'the chat-sse server sent no response body');

  try {
    // A relay holds the stream: the server sends nothing more until it is answered.
    await readSse(response.body, {
      sink: pipeline,
      eventAsType: true,
      signal: fetchSignal,
      afterRecord: () => {
        const relay = pipeline.state.relay;
        pipeline.state.relay = undefined;
        return relay ? answerRelay(run, relay) : undefined;
      },
    });
  } catch (error) {
    if (stop.stopped) return stopped(run);
    if (!run.failController.signal.aborted) {
      return fail(run, 'remote_unavailable', `the chat-sse stream broke: ${causeOf(error)}`, { reason: 'crashed' });
    }
  }
  if (stop.stopped) return stopped(run);
  return endOutcome(run);
}

/** The outcome of a stream read to its end: the failure the server reported, its end, or none (crashed). */
function endOutcome(run: ChatRun): SessionOutcome {
  const state = run.pipeline.state.chat;
  emitAll(run.ctx, closeOpenBlock(state));
  if (state.failure !== undefined) return { status: 'failed', message: state.failure, sessionId: state.sessionId };
  if (state.end === undefined) {
    return fail(run, 'remote_unavailable', 'the chat-sse server closed the stream before the run ended', {
      reason: 'crashed',
    });
  }
  const output = state.lastText;
  if (state.end.reason === 'max_iterations') {
    const after = state.end.iterations === undefined ? '' : ` after ${state.end.iterations} iterations`;
    return {
      status: 'completed',
      message: `the agent stopped at its iteration limit${after} (max_iterations)`,
      output,
      sessionId: state.sessionId,
    };
  }
  return { status: 'completed', output, sessionId: state.sessionId };
}

/** A relay decided and answered; an answer the server did not take fails the run and drops the stream. */
async function answerRelay(run: ChatRun, relay: ChatSseRelay): Promise<void> {
  const { ctx, options, stop } = run;
  const state = run.pipeline.state.chat;
  const decision = await decideRelay(ctx, options, relay, stop.signal);
  if (stop.stopped) return;
  const response =
    decision.kind === 'approve'
      ? { approved: true, ...(decision.scope === 'always' ? { always: true } : {}) }
      : { approved: false, reason: decision.reason };
  const problem = await postRelay(ctx, options, relay.relayId, state.sessionId ?? '', response, run.fetchSignal);
  if (problem === undefined || stop.stopped) return;
  state.failure ??= problem;
  ctx.emit({ type: 'error', code: 'remote_unavailable', message: problem, recoverable: false });
  run.failController.abort();
}

/** Ends the run failed: the open block closed, the error emitted. */
function fail(run: ChatRun, code: ErrorCode, message: string, extra: Partial<SessionOutcome> = {}): SessionOutcome {
  const state = run.pipeline.state.chat;
  emitAll(run.ctx, closeOpenBlock(state));
  run.ctx.emit({ type: 'error', code, message, recoverable: false });
  return { status: 'failed', message, sessionId: state.sessionId, ...extra };
}

function stopped(run: ChatRun): SessionOutcome {
  return run.stop.outcome({ sessionId: run.pipeline.state.chat.sessionId });
}

function emitAll(ctx: SessionContext, drafts: readonly EventDraft[]): void {
  for (const draft of drafts) ctx.emit(draft);
}

/** What the session's translator keeps: the chat's own state, and the relay the last record asked. */
interface ChatSseRecords extends TranslatorState {
  chat: ChatSseState;
  relay?: ChatSseRelay;
}

/** llm-gateway's records through the core's pipeline: `translateChatSse`, its relay kept for the session. */
function chatSseRecords(model: string | undefined): Translator<ChatSseRecords> {
  return {
    init: ({ debug }) => ({ debug, chat: initialChatSseState(model) }),
    translate(record, state) {
      const value = record.kind === 'json' ? record.value : undefined;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return [{ type: 'error', code: 'malformed_record', message: 'unreadable SSE data', recoverable: true }];
      }
      const fields = value as Record<string, unknown>;
      const { drafts, relay } = translateChatSse(
        typeof fields.type === 'string' ? fields : { ...fields, type: 'message' },
        state.chat,
      );
      if (relay) state.relay = relay;
      return drafts;
    },
  };
}

/** The policy first (allow / deny locally), then the approval channel for `ask`. */
async function decideRelay(
  ctx: SessionContext,
  options: ChatSseOptions,
  relay: ChatSseRelay,
  signal: AbortSignal,
): Promise<ApprovalDecision> {
  const verdict = ctx.policy ? decide(ctx.policy, relay.tool, relay.params) : { decision: 'ask' as const };
  if (verdict.decision === 'allow') return { kind: 'approve', scope: 'once', by: 'policy' };
  if (verdict.decision === 'deny') {
    return { kind: 'deny', reason: verdict.rule?.reason ?? `the run's policy denies ${relay.tool}`, by: 'policy' };
  }
  return awaitApproval({
    channel: ctx.approvals,
    request: {
      approvalId: relay.relayId,
      runId: ctx.runId,
      toolName: relay.tool,
      input: relay.params,
      ...(verdict.rule?.reason === undefined ? {} : { reason: verdict.rule.reason }),
      toolCallId: relay.toolCallId,
    },
    signal,
    timeoutMs: options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    abortedReason: 'the run stopped',
    emit: ctx.emit,
  });
}

/** `POST /chat/relay/:relayId`; resolves with a problem's description, or undefined when answered. */
async function postRelay(
  ctx: SessionContext,
  options: ChatSseOptions,
  relayId: string,
  sessionId: string,
  response: unknown,
  signal: AbortSignal,
): Promise<string | undefined> {
  const auth = authHeaders(options.auth, ctx.env);
  if ('error' in auth) return auth.error;
  try {
    const answer = await fetch(endpoint(options.baseUrl, `chat/relay/${encodeURIComponent(relayId)}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth.headers },
      body: JSON.stringify({ sessionId, response }),
      signal,
    });
    if (answer.ok) {
      await answer.body?.cancel();
      return undefined;
    }
    return `the chat-sse server refused the answer to relay ${relayId} (HTTP ${answer.status}): ${await httpErrorDetail(answer)}`;
  } catch (error) {
    return `cannot answer relay ${relayId}: ${causeOf(error)}`;
  }
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
