import type {
  AgentCapabilities,
  AnyMessage,
  ClientConnection,
  ContentBlock,
  McpServer,
  Stream,
} from '@agentclientprotocol/sdk';
import type { LaunchContext, ProcessController, RunIO } from '../../../core/adapter/index.ts';
import { type SteerMessage, type SteerOutcome, steeredNotice } from '../../../core/run/agent-input.ts';
import { createApprovalIdSource } from '../../../core/tools/create-approval-id.ts';
import type { AcpClientHandlers } from './acp-client-app.ts';
import { decodeAcpMessage } from './acp-message.ts';
import type { AcpSessionLog } from './acp-session-log.ts';
import { reportUnreported } from './report-unreported.ts';

export interface AcpControllerOptions {
  /** How long a permission question may stay open. Default 120 000 ms. */
  approvalTimeoutMs?: number;
  /** The name the run's MCP server gets in `session/new`. Default `agent-mux`. */
  mcpServerName?: string;
  /**
   * How long the agent may take to answer `initialize` before the run fails with a reason (a program
   * started without its ACP flag prints nothing or something else). Default 60 000 ms.
   */
  initializeTimeoutMs?: number;
  /** The agent's own session log, read for what its ACP messages leave out. */
  sessionLog?: AcpSessionLog;
}

/**
 * The client half of ACP v1 for one run, on the SDK's `ClientApp` over the program's stdio (the
 * core's process path: its decoded stdout records in, `io.writeLine` out):
 * `initialize` (file system offered) → `session/load` (resume, when the agent can) or
 * `session/new` (the run's MCP server over http when the agent takes it) → `session/prompt`.
 * Permission requests go to the run's approval channel, file requests to its tool host. A stop
 * answers every open permission request `cancelled` and sends `session/cancel`; the core then ends
 * the process group. The translator reports what the agent says, the prompt response ends the run.
 */
export function acpController(io: RunIO, ctx: LaunchContext, options: AcpControllerOptions = {}): ProcessController {
  const { stream, inbound } = stdioStream(io);
  const cancel = new AbortController();
  const work = trackedWork();
  const handlers = clientHandlers(io, ctx, options, AbortSignal.any([cancel.signal, io.signal]), work);
  const log = options.sessionLog;
  const reported = new Set<string>();
  // The SDK is loaded now (its own chunk in the bundles), while the program starts; the records
  // the program prints meanwhile wait in `stream`.
  const connecting = import('./acp-client-app.ts').then((m) => ({
    protocolVersion: m.PROTOCOL_VERSION,
    connection: m.connectAcpClient(stream, handlers),
  }));
  const run: AcpRun = {
    io,
    ctx,
    options,
    cancel,
    unanswered: initializeDeadline(io, options.initializeTimeoutMs ?? 60_000),
    closed: false,
  };
  // Failures (an error response, the agent gone) are reported by the translator and the core.
  converse(run, connecting).catch(() => undefined);
  const steering = queuedPrompts(run);

  return {
    steer: (message) => steering.steer(message),
    holdsTurn: () => steering.holdsTurn(),
    onEvent(event) {
      if (event.type === 'tool_call_start' || event.type === 'tool_call_ready') reported.add(event.toolCallId);
    },
    onRecord(record) {
      if (run.closed || record.kind !== 'json' || !inbound) return;
      steering.onRecord(record.value);
      // Only the agent's requests and its responses reach the SDK: the translator reports the
      // notifications (session/update) and the lines that are not JSON-RPC.
      const message = decodeAcpMessage(record.value);
      if (message === undefined || message.kind === 'notification') return;
      inbound.enqueue(record.value as AnyMessage);
    },
    requestStop(reason) {
      steering.close('the run is stopping');
      if (reason !== 'completed' && !cancel.signal.aborted) {
        // Open permission requests are answered `cancelled` before the agent hears of the cancel.
        cancel.abort();
        const id = run.sessionId;
        if (id) {
          // Best effort: the core ends the process group right after this.
          Promise.allSettled([...work.questions])
            .then(() => run.connection?.agent.notify('session/cancel', { sessionId: id }))
            .catch(() => undefined);
        }
      }
      return false;
    },
    settle: async () => {
      // The program is gone: questions still open can no longer be answered to anyone.
      clearTimeout(run.unanswered);
      cancel.abort();
      while (work.inFlight.size > 0) await Promise.allSettled([...work.inFlight]);
      // The agent is gone and its log complete: what it tried and ACP never reported is shown now.
      if (log && run.sessionId) await reportUnreported(log, ctx.env, run.sessionId, reported, io.emit);
      run.closed = true;
      run.connection?.close();
    },
  };
}

/**
 * Messages for the running agent (steering), as ACP allows them: one prompt at a time, so each
 * waits for the prompt in flight to end (`end_turn`) and then goes as the next `session/prompt`,
 * which the run then waits for (`holdsTurn`); its `steered` notice marks where it was sent. A turn
 * that ends otherwise (refused, cancelled, an error) ends the run, and what waits is queued for
 * the run's next turn.
 */
function queuedPrompts(run: AcpRun): {
  steer(message: SteerMessage): SteerOutcome;
  holdsTurn(): boolean;
  onRecord(value: unknown): void;
  close(reason: string): void;
} {
  const startedAt = Date.now();
  const waiting: SteerMessage[] = [];
  let extraTurn = false;
  let closed: string | undefined;
  const close = (reason: string) => {
    closed ??= reason;
  };
  return {
    steer(message) {
      if (closed !== undefined) return { kind: 'queued', reason: closed };
      const text = message.text.trim();
      if (text === '') return { kind: 'queued', reason: 'the message is empty' };
      waiting.push({ ...message, text });
      return { kind: 'delivered' };
    },
    holdsTurn: () => extraTurn,
    onRecord(value) {
      const result = isRecord(value) && 'id' in value && isRecord(value.result) ? value.result : undefined;
      if (typeof result?.stopReason !== 'string') return;
      const sessionId = run.sessionId;
      const agent = run.connection?.agent;
      if (result.stopReason !== 'end_turn' || waiting.length === 0 || closed || !sessionId || !agent) {
        extraTurn = false;
        close(
          result.stopReason === 'end_turn' ? 'the agent has finished its turn' : `the turn ended: ${result.stopReason}`,
        );
        return;
      }
      extraTurn = true;
      const messages = waiting.splice(0);
      for (const message of messages) run.io.emit(steeredNotice(message, Date.now() - startedAt));
      const prompt: ContentBlock[] = [{ type: 'text', text: messages.map((m) => m.text).join('\n\n') }];
      // Its response (or error) is translated as any prompt's: it ends the run when nothing waits.
      agent.request('session/prompt', { sessionId, prompt }).catch(() => undefined);
    },
    close,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The agent's side of the SDK's stream: its records are enqueued to `inbound`, what the SDK writes goes to `io.writeLine`. */
function stdioStream(io: RunIO): { stream: Stream; inbound: ReadableStreamDefaultController<AnyMessage> | undefined } {
  let inbound: ReadableStreamDefaultController<AnyMessage> | undefined;
  const stream: Stream = {
    readable: new ReadableStream<AnyMessage>({
      start(controller) {
        inbound = controller;
      },
    }),
    writable: new WritableStream<AnyMessage>({
      write: (message) => io.writeLine(message).catch(() => undefined),
    }),
  };
  return { stream, inbound };
}

/** The work the agent's requests started, waited for before the run ends; among it, the open permission questions. */
interface TrackedWork {
  readonly inFlight: Set<Promise<unknown>>;
  readonly questions: Set<Promise<unknown>>;
  track<T>(work: Promise<T>): Promise<T>;
  asking<T>(work: Promise<T>): Promise<T>;
}

function trackedWork(): TrackedWork {
  const inFlight = new Set<Promise<unknown>>();
  const questions = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  const asking = <T>(work: Promise<T>): Promise<T> => {
    questions.add(work);
    work.finally(() => questions.delete(work)).catch(() => undefined);
    return track(work);
  };
  return { inFlight, questions, track, asking };
}

/** What the client answers the agent's requests with: permission questions and file requests, until `signal` aborts. */
function clientHandlers(
  io: RunIO,
  ctx: LaunchContext,
  options: AcpControllerOptions,
  signal: AbortSignal,
  work: TrackedWork,
): AcpClientHandlers {
  const log = options.sessionLog;
  let fsCalls = 0;
  return {
    permission: {
      ...(log ? { reasonFor: (sessionId, toolCallId) => log.reason(ctx.env, sessionId, toolCallId) } : {}),
      runId: ctx.runId,
      approvals: io.approvals,
      policy: ctx.policy,
      grants: new Set<string>(),
      createApprovalId: createApprovalIdSource(),
      emit: io.emit,
      signal,
      timeoutMs: options.approvalTimeoutMs ?? 120_000,
    },
    files: {
      tools: io.tools,
      cwd: ctx.request.cwd,
      emit: io.emit,
      signal,
      nextId: () => `acp-fs-${++fsCalls}`,
    },
    track: work.track,
    asking: work.asking,
  };
}

/** What the conversation with the agent shares with the controller's handlers. */
interface AcpRun {
  readonly io: RunIO;
  readonly ctx: LaunchContext;
  readonly options: AcpControllerOptions;
  /** Aborted by a stop (other than `completed`) and when the run settles. */
  readonly cancel: AbortController;
  /** The deadline of the agent's answer to `initialize`. */
  readonly unanswered: NodeJS.Timeout;
  /** The SDK's connection, once it is loaded. */
  connection?: ClientConnection;
  /** The ACP session, once loaded or created. */
  sessionId?: string;
  /** The run has settled: a connection made after it is closed at once. */
  closed: boolean;
}

/** Fails the run when the agent has not answered `initialize` within `ms`. */
function initializeDeadline(io: RunIO, ms: number): NodeJS.Timeout {
  const unanswered = setTimeout(
    () =>
      io.fail({
        code: 'agent_error',
        message: `the agent did not answer ACP initialize within ${ms} ms: is it started in its ACP mode (e.g. --acp)?`,
      }),
    ms,
  );
  // The program's pipes keep a run alive; this timer alone must not (a controller a test never settles).
  unanswered.unref();
  return unanswered;
}

/** `initialize`, then `session/load` (resume, when the agent can) or `session/new`, then `session/prompt`. */
async function converse(
  run: AcpRun,
  connecting: Promise<{ protocolVersion: number; connection: ClientConnection }>,
): Promise<void> {
  const { io, ctx } = run;
  const connected = await connecting.catch((error: unknown) => {
    io.fail({ code: 'internal', message: `agent-mux could not load its ACP client: ${(error as Error).message}` });
    throw error;
  });
  const connection = connected.connection;
  run.connection = connection;
  if (run.closed) {
    connection.close();
    return;
  }
  const agent = connection.agent;
  const init = await agent
    .request('initialize', {
      protocolVersion: connected.protocolVersion,
      // `_meta.terminal_output`: the Zed convention for a command's output in tool call updates.
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, _meta: { terminal_output: true } },
      clientInfo: { name: 'agent-mux', version: '1' },
    })
    .finally(() => clearTimeout(run.unanswered));
  const capabilities: AgentCapabilities = init.agentCapabilities ?? {};
  const mcpServers = mcpServersFor(ctx, capabilities, run.options.mcpServerName ?? 'agent-mux');
  const cwd = ctx.request.cwd;
  const resume = ctx.request.resumeSessionId;
  let sessionId: string;
  if (resume && capabilities.loadSession === true) {
    await agent.request('session/load', { sessionId: resume, cwd, mcpServers });
    sessionId = resume;
  } else {
    if (resume) {
      io.emit({
        type: 'error',
        code: 'agent_error',
        message: `the agent cannot load sessions (no loadSession capability): session ${resume} is not continued, a new one starts`,
        recoverable: true,
      });
    }
    sessionId = (await agent.request('session/new', { cwd, mcpServers })).sessionId;
  }
  run.sessionId = sessionId;
  if (run.cancel.signal.aborted) return;
  await agent.request('session/prompt', { sessionId, prompt: promptOf(ctx) });
}

/** The run's MCP server, over http, when the agent says it takes http MCP servers. */
function mcpServersFor(ctx: LaunchContext, capabilities: AgentCapabilities, name: string): McpServer[] {
  if (!ctx.mcpUrl || capabilities.mcpCapabilities?.http !== true) return [];
  const headers = ctx.mcpToken ? [{ name: 'Authorization', value: `Bearer ${ctx.mcpToken}` }] : [];
  return [{ type: 'http', name, url: ctx.mcpUrl, headers }];
}

/** The prompt as ACP content: the system prompt (ACP has no field for it) first, then the task. */
function promptOf(ctx: LaunchContext): ContentBlock[] {
  const { prompt, systemPrompt } = ctx.request;
  return [{ type: 'text', text: systemPrompt ? `${systemPrompt}\n\n${prompt}` : prompt }];
}
