import { rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { Adapter, RunRequest } from '../core/adapter/index.ts';
import type { AgentEvent } from '../core/events/index.ts';
import type { RunEnd, RunHandle } from '../core/run/run-options.ts';
import { startRun } from '../core/run/start-run.ts';
import type { FenceOptions } from '../core/sandbox/fence-options.ts';
import type { ToolDescription } from '../core/tools/tool-host.ts';
import { CallerToolHost } from './caller-tool-host.ts';
import { type AgentRecord, RecordsFromEvents } from './records-from-events.ts';

/** The Process protocol's adapter → agent records, as `POST /v1/sessions/{id}/input` takes them. */
export type InputRecord =
  | { type: 'tool_result'; id: string; ok: true; value?: unknown }
  | { type: 'tool_result'; id: string; ok: false; error: string }
  | { type: 'budget_update'; remaining: { tokens?: number; usd?: number } }
  | { type: 'shutdown'; reason: string };

export interface RemoteSessionOptions {
  id: string;
  adapter: Adapter;
  request: RunRequest;
  runId: string;
  taskId: string;
  leaseToken: string;
  leaseEpoch: number;
  heartbeatMs: number;
  idleTimeoutMs: number;
  graceMs?: number;
  env?: Record<string, string | undefined>;
  /** A temporary workspace the session made for itself: removed with the session. */
  ownedDir?: string;
  /**
   * The caller's tools (the negotiated `caller-tools` extension): the agent works with these only,
   * relayed to the caller. Undefined: plain ca-http-v1 (the agent's tool calls are relayed, its own
   * tools work here).
   */
  callerTools?: readonly ToolDescription[];
  /** The run's fence (the server's option). */
  fence?: FenceOptions;
  /** Called once when the session is removed. */
  onRemoved(session: RemoteSession): void;
}

type ServerRecord = AgentRecord | { type: 'error'; message: string };

/**
 * One remote session: one local run, its SSE reader, its pending tool calls and its lease epoch
 * (ca-http-v1's fencing token).
 */
export class RemoteSession {
  readonly id: string;
  readonly handle: RunHandle;
  readonly result: Promise<RunEnd>;
  #leaseEpoch: number;
  #budget: { tokens?: number; usd?: number } | undefined;
  readonly #options: RemoteSessionOptions;
  readonly #tools: CallerToolHost;
  readonly #records: RecordsFromEvents;
  readonly #queue: ServerRecord[] = [];
  #reader: ServerResponse | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #idle: NodeJS.Timeout | undefined;
  #ended = false;
  #flushScheduled = false;
  #removed = false;
  #removing: Promise<void> | undefined;

  constructor(options: RemoteSessionOptions) {
    this.id = options.id;
    this.#options = options;
    this.#leaseEpoch = options.leaseEpoch;
    this.#tools = new CallerToolHost((record) => this.#push(record), options.callerTools);
    // Steps of tools the agent runs itself (here) are told to the caller; relayed ones it runs and shows itself.
    this.#records = new RecordsFromEvents({
      ownToolSteps: options.callerTools === undefined && options.adapter.callerTools !== 'native',
    });
    // An agent that takes the caller's tools over MCP gets the run's MCP server (on this host's
    // loopback) serving them, and its own tools off; a native one calls them as it always does.
    const overMcp = options.callerTools !== undefined && options.adapter.callerTools === 'mcp';
    this.handle = startRun({
      adapter: options.adapter,
      request: overMcp ? { ...options.request, callerToolsOnly: true } : options.request,
      runId: options.runId,
      taskId: options.taskId,
      leaseToken: options.leaseToken,
      leaseEpoch: options.leaseEpoch,
      mcp: overMcp ? 'on' : 'off',
      graceMs: options.graceMs,
      env: options.env,
      ...(options.fence ? { fence: options.fence } : {}),
      tools: this.#tools,
      onEvent: (event) => this.#onEvent(event),
    });
    this.result = this.handle.result.then((end) => {
      this.#ended = true;
      this.#tools.cancelAll('the run has ended');
      return end;
    });
    this.#armIdle();
  }

  /** True until the run has ended. */
  get running(): boolean {
    return !this.#ended;
  }

  get leaseEpoch(): number {
    return this.#leaseEpoch;
  }

  /** The remaining budget the caller reported last (`budget_update`), if any. */
  get budget(): { tokens?: number; usd?: number } | undefined {
    return this.#budget;
  }

  /** Accepts a fencing token; false when it is older than the session's. A newer one replaces it. */
  checkFencing(token: number): boolean {
    if (token < this.#leaseEpoch) return false;
    this.#leaseEpoch = token;
    return true;
  }

  /** Makes `response` the session's event stream (replacing an earlier reader) and sends what is queued. */
  attach(response: ServerResponse): void {
    const previous = this.#reader;
    this.#detach();
    previous?.end();
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.flushHeaders();
    this.#reader = response;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    this.#heartbeat = setInterval(() => response.write(': ping\n\n'), this.#options.heartbeatMs);
    response.on('close', () => {
      if (this.#reader !== response) return;
      this.#detach();
      this.#armIdle();
    });
    this.#flush();
  }

  /** Applies one input record from the caller. */
  input(record: InputRecord): void {
    this.#idle?.refresh();
    switch (record.type) {
      case 'tool_result':
        // An answer to a call that is no longer pending (the run stopped meanwhile) is ignored.
        this.#tools.answer(
          record.id,
          record.ok ? { ok: true, value: record.value } : { ok: false, error: record.error },
        );
        return;
      case 'budget_update': {
        this.#budget = { ...record.remaining };
        const { tokens, usd } = record.remaining;
        if ((tokens !== undefined && tokens <= 0) || (usd !== undefined && usd <= 0))
          this.handle.abort('budget exceeded: the caller reported no budget left');
        return;
      }
      case 'shutdown':
        if (record.reason === 'lease_expired') this.handle.expireLease();
        else this.handle.abort(`shutdown requested by the caller: ${record.reason}`);
        return;
    }
  }

  /** Stops the run (if running), waits for it to end and removes the session. Idempotent. */
  remove(reason: string): Promise<void> {
    this.#removing ??= (async () => {
      if (this.#idle) clearTimeout(this.#idle);
      this.#idle = undefined;
      if (this.running) this.handle.abort(reason);
      this.#tools.cancelAll(reason);
      await this.result;
      this.#finishRemoval();
    })();
    return this.#removing;
  }

  #finishRemoval(): void {
    if (this.#removed) return;
    this.#removed = true;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    const reader = this.#reader;
    this.#detach();
    reader?.end();
    if (this.#options.ownedDir) rm(this.#options.ownedDir, { recursive: true, force: true }).catch(() => undefined);
    this.#options.onRemoved(this);
  }

  #onEvent(event: AgentEvent): void {
    if (event.type === 'error' && event.code === 'internal') this.#push({ type: 'error', message: event.message });
    for (const record of this.#records.translate(event)) this.#push(record);
    if (this.#records.holding && !this.#flushScheduled) {
      // A held progress waits for a cost drafted with it (same tick), then goes out.
      this.#flushScheduled = true;
      queueMicrotask(() => {
        this.#flushScheduled = false;
        for (const record of this.#records.flush()) this.#push(record);
      });
    }
  }

  #push(record: ServerRecord): void {
    if (this.#removed) return;
    this.#queue.push(record);
    this.#flush();
  }

  #flush(): void {
    const reader = this.#reader;
    if (!reader) return;
    while (this.#queue.length > 0) {
      const record = this.#queue.shift() as ServerRecord;
      reader.write(`event: ${record.type}\ndata: ${JSON.stringify(record)}\n\n`);
      if (record.type === 'complete' || record.type === 'failed') {
        // The stream ends after the final record; the session is done once the caller has it.
        this.#detach();
        reader.end();
        this.#removing ??= this.result.then(() => this.#finishRemoval());
        return;
      }
    }
  }

  #detach(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    this.#reader = undefined;
  }

  #armIdle(): void {
    if (this.#removed || this.#removing || this.#reader) return;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      this.#idle = undefined;
      if (!this.#reader) this.remove('the caller went away').catch(() => undefined);
    }, this.#options.idleTimeoutMs);
  }
}
