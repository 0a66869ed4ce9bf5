import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentSession, LaunchContext, ProcessController } from '../adapter/index.ts';
import { CostTracker } from '../cost/cost-tracker.ts';
import { agentEnvironment } from '../env/agent-environment.ts';
import type { AgentEvent, RunTotals } from '../events/index.ts';
import { Redactor } from '../redact/redactor.ts';
import { nextDelay, shouldRetry } from '../retry/retry-policy.ts';
import { type McpServerHandle, startMcpServer } from '../tools/mcp/start-mcp-server.ts';
import type { AttemptResult, StopRequest } from './attempt-result.ts';
import { checkProgramVersion } from './check-program-version.ts';
import type { Child } from './child.ts';
import { EventQueue } from './event-queue.ts';
import { runProcessAttempt } from './process-attempt.ts';
import { RunEmitter } from './run-emitter.ts';
import type { RunEnd, RunHandle, RunOptions } from './run-options.ts';
import { runSessionAttempt } from './session-attempt.ts';

const DEFAULT_GRACE_MS = 5000;
const DEFAULT_TERMINAL_GRACE_MS = 2000;
const MAX_PENDING_STDIN_BYTES = 8 * 1024 * 1024;

/** Collects the secret values a run must never show: configured values and the values of secret env vars. */
function collectSecrets(options: RunOptions, env: Readonly<Record<string, string | undefined>>): string[] {
  const names = new Set([...(options.adapter.secretEnv ?? []), ...(options.secretEnv ?? [])]);
  const values = [...(options.secrets ?? [])];
  for (const name of names) {
    const value = env[name] ?? options.request.env?.[name];
    if (value) values.push(value);
  }
  return values;
}

/**
 * Starts one run of an agent. Events flow to `onEvent` and to `events` (read it right away:
 * events are buffered from the moment it is first read). Exactly one `run_end` ends the stream.
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
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const terminalGraceMs = options.terminalGraceMs ?? DEFAULT_TERMINAL_GRACE_MS;
  const abort = new AbortController();
  const redactor = new Redactor(collectSecrets(options, hostEnv));
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

  let queue: EventQueue<AgentEvent> | undefined;
  let child: Child | undefined;
  let paused = false;
  const events: AsyncIterable<AgentEvent> = {
    [Symbol.asyncIterator]() {
      if (!queue) {
        queue = new EventQueue<AgentEvent>({
          onPressure: (pause) => {
            paused = pause;
            if (pause) child?.pause();
            else child?.resume();
          },
        });
        emitter.attachQueue(queue);
      }
      return queue[Symbol.asyncIterator]();
    },
  };

  let stopAttempt: ((request: StopRequest) => void) | undefined;
  let pendingStop: StopRequest | undefined;
  let controller: ProcessController | undefined;
  let session: AgentSession | undefined;
  const requestStop = (request: StopRequest) => {
    pendingStop ??= request;
    stopAttempt?.(request);
  };

  const onExternalAbort = () => requestStop({ reason: 'aborted', shutdown: 'cancelled', message: abortMessage() });
  const abortMessage = () => {
    const reason: unknown = options.signal?.reason ?? abort.signal.reason;
    return typeof reason === 'string' ? reason : reason instanceof Error ? reason.message : 'aborted';
  };
  options.signal?.addEventListener('abort', onExternalAbort, { once: true });
  abort.signal.addEventListener('abort', onExternalAbort, { once: true });

  const budget = options.budget;
  emitter.onCost = (totals: RunTotals) => {
    if (!budget) return;
    const remaining = {
      tokens: budget.tokens === undefined ? undefined : budget.tokens - totals.inputTokens - totals.outputTokens,
      usd: budget.usd === undefined ? undefined : budget.usd - totals.usd,
    };
    controller?.onBudget?.(remaining);
    session?.onBudget?.(remaining);
    if ((remaining.tokens ?? 1) <= 0 || (remaining.usd ?? 1) <= 0) {
      const spent = remaining.usd !== undefined && remaining.usd <= 0 ? `USD ${totals.usd.toFixed(4)}` : 'tokens';
      emitter.emit({
        type: 'error',
        code: 'budget_exceeded',
        message: `the run's budget is spent (${spent})`,
        recoverable: false,
      });
      requestStop({ reason: 'budget_exceeded', shutdown: 'budget_exceeded', message: 'budget exceeded' });
    }
  };

  let mcp: { url: string; token: string; server?: McpServerHandle } = { url: options.mcpUrl ?? '', token: '' };
  async function startMcp(): Promise<void> {
    const wanted = options.mcp ?? 'auto';
    if (options.mcpUrl || !tools || wanted === 'off' || (wanted === 'auto' && !adapter.capabilities.mcp)) return;
    const token = randomBytes(24).toString('base64url');
    redactor.addSecret(token);
    try {
      const server = await startMcpServer({
        host: tools,
        token,
        permissionPrompt: options.approvals
          ? { approvals: options.approvals, runId, emit: (draft) => emitter.emit(draft) }
          : undefined,
      });
      mcp = { url: server.url, token, server };
    } catch (error) {
      emitter.emit({
        type: 'error',
        code: 'internal',
        message: `the run's MCP server could not start, the agent gets no MCP tools: ${(error as Error).message}`,
        recoverable: true,
      });
    }
  }

  const startedAt = Date.now();
  const result = (async (): Promise<RunEnd> => {
    await new Promise((resolve) => setImmediate(resolve)); // let the caller attach to `events` first
    await startMcp();
    if (adapter.program && adapter.launch.kind === 'process' && options.checkVersion !== false) {
      const warning = await checkProgramVersion(adapter.program);
      if (warning) emitter.emit(warning);
    }
    const policy = options.retry;
    let attempt = 0;
    let last: AttemptResult = { reason: 'failed', message: 'not started' };
    try {
      for (;;) {
        attempt++;
        last = withToolOutcome(await runAttempt());
        if (pendingStop || !policy || !shouldRetry(policy, attempt, last.reason)) break;
        const delay = nextDelay(policy, attempt);
        emitter.emit({
          type: 'error',
          code: 'agent_error',
          message: `attempt ${attempt} ended ${last.reason}${last.message ? ` (${last.message})` : ''}; retrying in ${delay} ms`,
          recoverable: true,
        });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          abort.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
          options.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        const stopped = pendingStop as StopRequest | undefined;
        if (stopped) {
          last = { reason: stopped.reason, message: stopped.message };
          break;
        }
      }
    } catch (error) {
      emitter.emit({ type: 'error', code: 'internal', message: (error as Error).message, recoverable: false });
      last = { reason: 'failed', message: (error as Error).message };
    } finally {
      options.signal?.removeEventListener('abort', onExternalAbort);
      await mcp.server?.close().catch(() => undefined);
    }
    const end = emitter.end({
      type: 'run_end',
      reason: last.reason,
      message: last.message,
      exitCode: last.exitCode,
      signal: last.signal,
      durationMs: Date.now() - startedAt,
      sessionId: last.sessionId,
      output: last.output,
      attempts: attempt,
    });
    queue?.close();
    return end;
  })();

  /** `mark_complete` / `mark_failed` through the tool host decide an otherwise completed run. */
  function withToolOutcome(result: AttemptResult): AttemptResult {
    const recorded = tools?.outcome;
    if (result.reason !== 'completed' || !recorded) return result;
    return recorded.status === 'failed'
      ? {
          ...result,
          reason: 'failed',
          message: recorded.details ? `${recorded.reason}: ${recorded.details}` : recorded.reason,
        }
      : { ...result, output: result.output ?? recorded.output };
  }

  async function runAttempt(): Promise<AttemptResult> {
    const ctx: LaunchContext = {
      request: options.request,
      runId,
      taskId: options.taskId ?? runId,
      leaseToken: options.leaseToken ?? '',
      fencingToken: options.fencingToken ?? 0,
      mcpUrl: mcp.url,
      mcpToken: mcp.token,
      mcpApprovalPrompt: mcp.server !== undefined && options.approvals !== undefined,
      workspacePath: options.request.cwd,
      env,
      debug,
      clock: options.clock,
      policy: options.policy,
    };
    const timers = armTimers();
    const common = {
      ctx,
      emitter,
      graceMs,
      terminalGraceMs,
      tools,
      approvals: options.approvals,
      signal: abort.signal,
      onActivity: timers.activity,
      onNativeOutput: options.onNativeOutput,
      onStopper: (stop: (request: StopRequest) => void) => {
        stopAttempt = stop;
        if (pendingStop) stop(pendingStop);
      },
    };
    try {
      const launch = adapter.launch;
      return launch.kind === 'process'
        ? await runProcessAttempt({
            ...common,
            launch,
            maxPendingStdinBytes: options.maxPendingStdinBytes ?? MAX_PENDING_STDIN_BYTES,
            program: adapter.program,
            fence: options.fence,
            onController: (value) => {
              controller = value;
            },
            onChild: (value) => {
              child = value;
              if (value && paused) value.pause();
            },
          })
        : await runSessionAttempt({
            ...common,
            launch,
            onSession: (value) => {
              session = value;
            },
          });
    } finally {
      timers.clear();
      stopAttempt = undefined;
      controller = undefined;
    }
  }

  function armTimers(): { activity: () => void; clear: () => void } {
    const remainingTotal = options.timeoutMs === undefined ? undefined : options.timeoutMs - (Date.now() - startedAt);
    const total =
      remainingTotal === undefined
        ? undefined
        : setTimeout(
            () => {
              emitter.emit({
                type: 'error',
                code: 'timeout',
                message: `the run exceeded its ${options.timeoutMs} ms limit`,
                recoverable: false,
              });
              requestStop({
                reason: 'timeout',
                shutdown: 'timeout',
                message: `timed out after ${options.timeoutMs} ms`,
              });
            },
            Math.max(0, remainingTotal),
          );
    const idleMs = options.inactivityTimeoutMs;
    const idle =
      idleMs === undefined
        ? undefined
        : setTimeout(() => {
            emitter.emit({
              type: 'error',
              code: 'inactivity',
              message: `the agent printed nothing for ${idleMs} ms`,
              recoverable: false,
            });
            requestStop({ reason: 'inactivity', shutdown: 'inactivity', message: `no output for ${idleMs} ms` });
          }, idleMs);
    return {
      activity: () => idle?.refresh(),
      clear: () => {
        if (total) clearTimeout(total);
        if (idle) clearTimeout(idle);
      },
    };
  }

  return {
    runId,
    events,
    result,
    abort: (reason?: string) => abort.abort(reason ?? 'aborted'),
    expireLease: () => {
      emitter.emit({
        type: 'error',
        code: 'lease_expired',
        message: 'the lease of this run expired',
        recoverable: false,
      });
      requestStop({ reason: 'failed', shutdown: 'lease_expired', message: 'lease expired' });
    },
  };
}
