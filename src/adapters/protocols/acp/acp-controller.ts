import type {
  AgentCapabilities,
  AnyMessage,
  ClientConnection,
  ContentBlock,
  McpServer,
  Stream,
} from '@agentclientprotocol/sdk';
import type { LaunchContext, ProcessController, RunIO } from '../../../core/adapter/index.ts';
import { createApprovalIdSource } from '../../../core/tools/create-approval-id.ts';
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
  const cancel = new AbortController();
  const turnSignal = AbortSignal.any([cancel.signal, io.signal]);
  const grants = new Set<string>();
  const createApprovalId = createApprovalIdSource();
  let fsCalls = 0;
  const files = {
    tools: io.tools,
    cwd: ctx.request.cwd,
    emit: io.emit,
    signal: turnSignal,
    nextId: () => `acp-fs-${++fsCalls}`,
  };
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  const questions = new Set<Promise<unknown>>();
  const asking = <T>(work: Promise<T>): Promise<T> => {
    questions.add(work);
    work.finally(() => questions.delete(work)).catch(() => undefined);
    return track(work);
  };

  const log = options.sessionLog;
  const reported = new Set<string>();
  // The SDK is loaded now (its own chunk in the bundles), while the program starts; the records
  // the program prints meanwhile wait in `stream`.
  const connecting = import('./acp-client-app.ts').then((m) => ({
    protocolVersion: m.PROTOCOL_VERSION,
    connection: m.connectAcpClient(stream, {
      permission: {
        ...(log ? { reasonFor: (sessionId, toolCallId) => log.reason(ctx.env, sessionId, toolCallId) } : {}),
        runId: ctx.runId,
        approvals: io.approvals,
        policy: ctx.policy,
        grants,
        createApprovalId,
        emit: io.emit,
        signal: turnSignal,
        timeoutMs: options.approvalTimeoutMs ?? 120_000,
      },
      files,
      track,
      asking,
    }),
  }));
  let connection: ClientConnection | undefined;
  let sessionId: string | undefined;
  let closed = false;

  const initializeMs = options.initializeTimeoutMs ?? 60_000;
  const unanswered = setTimeout(
    () =>
      io.fail({
        code: 'agent_error',
        message: `the agent did not answer ACP initialize within ${initializeMs} ms: is it started in its ACP mode (e.g. --acp)?`,
      }),
    initializeMs,
  );
  // The program's pipes keep a run alive; this timer alone must not (a controller a test never settles).
  unanswered.unref();
  const converse = async () => {
    const connected = await connecting.catch((error: unknown) => {
      io.fail({ code: 'internal', message: `agent-mux could not load its ACP client: ${(error as Error).message}` });
      throw error;
    });
    connection = connected.connection;
    if (closed) {
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
      .finally(() => clearTimeout(unanswered));
    const capabilities: AgentCapabilities = init.agentCapabilities ?? {};
    const mcpServers = mcpServersFor(ctx, capabilities, options.mcpServerName ?? 'agent-mux');
    const cwd = ctx.request.cwd;
    const resume = ctx.request.resumeSessionId;
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
    if (cancel.signal.aborted) return;
    await agent.request('session/prompt', { sessionId, prompt: promptOf(ctx) });
  };
  // Failures (an error response, the agent gone) are reported by the translator and the core.
  converse().catch(() => undefined);

  return {
    onEvent(event) {
      if (event.type === 'tool_call_start' || event.type === 'tool_call_ready') reported.add(event.toolCallId);
    },
    onRecord(record) {
      if (closed || record.kind !== 'json' || !inbound) return;
      // Only the agent's requests and its responses reach the SDK: the translator reports the
      // notifications (session/update) and the lines that are not JSON-RPC.
      const message = decodeAcpMessage(record.value);
      if (message === undefined || message.kind === 'notification') return;
      inbound.enqueue(record.value as AnyMessage);
    },
    requestStop(reason) {
      if (reason !== 'completed' && !cancel.signal.aborted) {
        // Open permission requests are answered `cancelled` before the agent hears of the cancel.
        cancel.abort();
        const id = sessionId;
        if (id) {
          // Best effort: the core ends the process group right after this.
          Promise.allSettled([...questions])
            .then(() => connection?.agent.notify('session/cancel', { sessionId: id }))
            .catch(() => undefined);
        }
      }
      return false;
    },
    settle: async () => {
      // The program is gone: questions still open can no longer be answered to anyone.
      clearTimeout(unanswered);
      cancel.abort();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      // The agent is gone and its log complete: what it tried and ACP never reported is shown now.
      if (log && sessionId) await reportUnreported(log, ctx.env, sessionId, reported, io.emit);
      closed = true;
      connection?.close();
    },
  };
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
