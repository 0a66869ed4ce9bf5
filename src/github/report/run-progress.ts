import { exhaustive } from '../../core/events/exhaustive.ts';
import type { AgentEvent, EventOf } from '../../core/events/index.ts';
import type { RunEndReason, RunTotals } from '../../core/events/run-events.ts';
import { ApprovalLedger } from './approval-ledger.ts';
import { failureOf, logLineOf } from './event-log-lines.ts';
import { clip, formatClock } from './markdown.ts';
import type { ApprovalEntry, ApprovalTimes, ProgressStep, RefusedCall, StepTimes } from './progress-types.ts';
import { isQuiet } from './quiet-events.ts';
import { refusalIn } from './refusals.ts';
import { RollingLog } from './rolling-log.ts';
import { endReasonPhrase, type RunStatus, runStatus } from './run-lifecycle.ts';
import { StepList } from './step-list.ts';
import { StreamedMessage } from './streamed-message.ts';
import { MAX_SUMMARY_CHARS, MAX_TITLE_CHARS, summarize, toolStepLabel, toolTarget } from './summarize.ts';
import { WrittenFiles } from './written-files.ts';

export type { ApprovalEntry, ApprovalTimes, ProgressStep, RefusedCall, StepTimes, ToolStep } from './progress-types.ts';
export { summarize } from './summarize.ts';

/** How many refused calls are kept (the first ones). */
const MAX_REFUSED = 20;

/** The longest line the progress log keeps. */
export const MAX_LOG_LINE_CHARS = 500;

/**
 * What a run's reports show, kept up to date one normalized event at a time (`apply`): status,
 * model, tokens and cost, the checklist of steps, approvals, files written, the last error and a
 * rolling log of one short line per meaningful event. Everything is derived from the events
 * (timestamps included), so rendering it is a pure function of what happened.
 */
export class RunProgress {
  readonly agent: string;
  model: string | undefined;
  sessionId: string | undefined;
  /** Timestamp of the first event. */
  startedAt: number | undefined;
  /** Timestamp of the latest event. */
  lastEventAt: number | undefined;
  /** The latest `tick`: the time shown while no event comes. */
  #tickedAt: number | undefined;
  /** The run's duration as `run_end` reported it. */
  durationMs: number | undefined;
  inputTokens = 0;
  outputTokens = 0;
  cacheReadTokens = 0;
  usd = 0;
  /** The agent reported tokens or cost at least once (else the reports say it did not). */
  costReported = false;
  /** Models whose tokens had no known price, counted as USD 0. */
  unpricedModels: readonly string[] = [];
  lastError: string | undefined;
  /** What the run's user should know about how the policy was applied (`notice` events), in order. */
  readonly notices: { code: EventOf<'notice'>['code']; message: string }[] = [];
  /** Calls refused by a restriction a notice announced (`read_only`), the first ones. */
  readonly refused: RefusedCall[] = [];
  endReason: RunEndReason | undefined;
  endMessage: string | undefined;
  /** One line per meaningful event, newest kept. */
  readonly log: RollingLog;
  /** How many events were applied. */
  events = 0;

  readonly #steps = new StepList();
  readonly #approvals = new ApprovalLedger();
  readonly #files = new WrittenFiles();
  readonly #targets = new Map<string, string>();
  /** Write tools called and not yet ended: their file, listed once the write succeeds. */
  readonly #pendingWrites = new Map<string, string>();
  readonly #message = new StreamedMessage(MAX_LOG_LINE_CHARS);

  constructor(init: { agent: string; model?: string; logLimit?: number }) {
    this.agent = init.agent;
    this.model = init.model;
    this.log = new RollingLog(init.logLimit);
  }

  /** Where the run stands: from how it ended, else the approvals it waits for, else whether an event came. */
  get status(): RunStatus {
    return runStatus({
      endReason: this.endReason,
      pending: this.#approvals.pendingCount,
      started: this.startedAt !== undefined,
    });
  }

  /** Time from the first event to `run_end` (or, while running, to the latest event or `tick`). */
  get elapsedMs(): number {
    if (this.durationMs !== undefined) return this.durationMs;
    const latest = Math.max(this.lastEventAt ?? 0, this.#tickedAt ?? 0);
    return this.startedAt === undefined || this.lastEventAt === undefined ? 0 : latest - this.startedAt;
  }

  /** The clock's time while nothing happens (a run waiting for an approval): the elapsed time moves on. */
  tick(now: number): void {
    if (this.durationMs === undefined) this.#tickedAt = Math.max(this.#tickedAt ?? 0, now);
  }

  /** The newest step still running, if any. */
  get currentStep(): ProgressStep | undefined {
    return this.#steps.current;
  }

  /** The checklist: `progress` summaries and tool calls, in the order they started. */
  get steps(): readonly ProgressStep[] {
    return this.#steps.items;
  }

  /** When `step` (one of `steps`) started and ended; undefined for a step this progress does not hold. */
  stepTimes(step: ProgressStep): StepTimes | undefined {
    return this.#steps.timesOf(step);
  }

  /** When `approval` (one of `approvals`) was asked and decided; undefined for an entry this progress does not hold. */
  approvalTimes(approval: ApprovalEntry): ApprovalTimes | undefined {
    return this.#approvals.timesOf(approval);
  }

  /** Tool-permission requests in the order asked, with what became of them. */
  get approvals(): readonly ApprovalEntry[] {
    return this.#approvals.entries;
  }

  /** Files the agent wrote, in order, without repeats. */
  get files(): readonly string[] {
    return this.#files.list;
  }

  /** Approvals nobody decided yet. */
  get pendingApprovals(): ApprovalEntry[] {
    return this.approvals.filter((a) => a.state === 'pending');
  }

  /** The agent's message being streamed, as its log line will read (not in `log` yet). */
  get pendingMessageLine(): string | undefined {
    return this.#message.text === '' ? undefined : this.#line(this.#message.at, `agent: ${this.#message.text}`);
  }

  /** True once `run_end` was applied. */
  get ended(): boolean {
    return this.endReason !== undefined;
  }

  /** Adds a line of the front end's own to the log (`approval asked on GitHub`). */
  note(line: string, at = this.lastEventAt ?? this.startedAt ?? 0): void {
    this.#flushMessage();
    this.log.push(this.#line(at, line));
  }

  /** Closes the books when the run ends without `run_end` (or after it): the streamed message goes to the log, open steps close. */
  close(ok: boolean): void {
    this.#flushMessage();
    this.#steps.closeAll(ok, this.lastEventAt ?? this.startedAt ?? 0);
  }

  /** Applies one normalized event. */
  apply(event: AgentEvent): void {
    this.events++;
    this.startedAt ??= event.timestamp;
    this.lastEventAt = event.timestamp;
    const at = event.timestamp;
    if (event.type === 'text_delta') {
      this.#message.delta(at, event.delta);
      return;
    }
    if (event.type === 'message_stop') {
      this.#message.stop(at, event.text);
      this.#flushMessage(true);
      return;
    }
    if (event.type === 'message_start') this.#flushMessage(true);
    if (isQuiet(event)) return;
    // The streamed message is flushed by the next line logged (`#log`), not by events that log
    // nothing (a `cost` between the last delta and `message_stop`): the message stays one line.
    this.#applyOther(event, at);
  }

  /** Applies an event other than the streamed message's text (`apply` takes those). */
  #applyOther(event: Exclude<AgentEvent, EventOf<'text_delta' | 'message_stop'>>, at: number): void {
    switch (event.type) {
      case 'session_start':
        this.sessionId = event.sessionId;
        if (event.model) this.model = event.model;
        this.#log(at, `session started${event.model ? ` · model ${event.model}` : ''}`);
        return;
      case 'session_resume':
        this.sessionId = event.sessionId;
        this.#log(at, `session resumed ${event.sessionId}`);
        return;
      case 'message_start':
        if (event.model && !this.model) this.model = event.model;
        return;
      case 'progress':
        this.#progress(at, event.summary);
        return;
      case 'tool_call_start':
        this.#toolStart(at, event.toolCallId, event.toolName);
        return;
      case 'mcp_tool_call_start':
        this.#toolStart(at, event.toolCallId, `${event.server}/${event.toolName}`, event.input);
        return;
      case 'tool_call_ready':
        this.#toolReady(at, event.toolCallId, event.toolName, event.input);
        return;
      case 'tool_result':
        this.#toolEnd(at, event.toolCallId, event.toolName, event.isError, event.output, event.durationMs);
        return;
      case 'mcp_tool_result':
        this.#toolEnd(at, event.toolCallId, `${event.server}/${event.toolName}`, event.isError, event.output);
        return;
      case 'file_output':
        this.#files.add(event.path);
        this.#log(at, `file written: ${event.path}`);
        return;
      case 'image_output':
      case 'comment':
      case 'skill_invoked':
      case 'plugin_invoked':
      case 'log':
        this.#log(at, logLineOf(event));
        return;
      case 'approval_request':
        this.#approvalRequest(at, event.approvalId, event.toolName, event.input, event.reason);
        return;
      case 'approval_granted':
      case 'approval_denied':
        this.#approvalDecided(at, event);
        return;
      case 'cost':
        this.#cost(event);
        return;
      case 'notice':
        this.notices.push({ code: event.code, message: clip(event.message, MAX_LOG_LINE_CHARS) });
        this.#log(at, `notice: ${event.message}`);
        return;
      case 'error':
      case 'auth_error':
      case 'rate_limit_error':
      case 'context_exceeded':
      case 'crash':
      case 'turn_end': {
        const failure = failureOf(event);
        if (failure !== undefined) this.#error(at, failure);
        return;
      }
      case 'run_end':
        this.#runEnd(at, event);
        return;
      // Not shown in the check run's log.
      case 'debug':
      case 'thinking_start':
      case 'thinking_delta':
      case 'thinking_stop':
      case 'session_fork':
      case 'turn_start':
      case 'tool_input_delta':
      case 'skill_loaded':
      case 'plugin_loaded':
        return;
      default:
        exhaustive(event);
        return;
    }
  }

  #line(at: number, text: string): string {
    return clip(`[${formatClock(at - (this.startedAt ?? at))}] ${text}`, MAX_LOG_LINE_CHARS);
  }

  #log(at: number, text: string): void {
    this.#flushMessage();
    this.log.push(this.#line(at, text));
  }

  /** Logs the streamed message, if any; `ended` when its message is over (the next one starts afresh). */
  #flushMessage(ended = false): void {
    const line = this.pendingMessageLine;
    this.#message.take(ended);
    if (line) this.log.push(line);
  }

  #progress(at: number, summary: string): void {
    this.#steps.addProgress(at, clip(summary, MAX_TITLE_CHARS));
    this.#log(at, `progress: ${summary}`);
  }

  #toolStart(at: number, id: string, toolName: string, input?: unknown): void {
    const existing = this.#steps.get(id);
    if (existing) {
      if (input !== undefined) relabel(existing, toolName, input);
      return;
    }
    this.#steps.add(at, { id, kind: 'tool', ...toolStepLabel(toolName, input), state: 'running' });
    this.#log(at, `tool ${toolName}`);
  }

  #toolReady(at: number, id: string, toolName: string, input: unknown): void {
    const step = this.#steps.get(id);
    if (step) relabel(step, toolName, input);
    else this.#toolStart(at, id, toolName, input);
    this.#targets.set(id, toolTarget(input) ?? toolName);
    if (toolName === 'write_file' || toolName === 'Write' || toolName === 'Edit' || toolName === 'edit_file') {
      const target = toolTarget(input);
      // Listed as written once the write succeeded: a denied, failed or pending one wrote nothing.
      if (target) this.#pendingWrites.set(id, target);
    }
  }

  #toolEnd(at: number, id: string, toolName: string | undefined, isError: boolean, output: unknown, ms?: number) {
    const step = this.#steps.get(id);
    if (step) this.#steps.end(at, step, isError ? 'failed' : 'done');
    const written = this.#pendingWrites.get(id);
    this.#pendingWrites.delete(id);
    if (written !== undefined && !isError) this.#files.add(written);
    if (isError) this.#refusal(id, toolName, output);
    const name = step?.title ?? toolName ?? id;
    const took = ms === undefined ? '' : ` (${Math.round(ms)} ms)`;
    const detail = summarize(output);
    this.#log(at, `tool ${name} ${isError ? 'failed' : 'done'}${took}${detail ? `: ${detail}` : ''}`);
  }

  /** A failed call whose output reads like a sandbox refusal, while a `read_only` notice is in force. */
  #refusal(id: string, toolName: string | undefined, output: unknown): void {
    if (this.refused.length >= MAX_REFUSED || !this.notices.some((n) => n.code === 'read_only')) return;
    const reason = refusalIn(output);
    if (reason === undefined) return;
    const target = this.#targets.get(id) ?? toolName ?? id;
    this.refused.push({ target: clip(target, MAX_TITLE_CHARS), reason: clip(reason, MAX_TITLE_CHARS) });
  }

  #approvalRequest(at: number, id: string, toolName: string, input: unknown, reason?: string): void {
    const entry: ApprovalEntry = {
      id,
      toolName: clip(toolName, MAX_TITLE_CHARS),
      summary: summarize(input),
      state: 'pending',
      ...(reason === undefined ? {} : { reason: clip(reason, MAX_SUMMARY_CHARS) }),
    };
    this.#approvals.ask(at, entry);
    this.#log(at, `approval ${id} requested: ${entry.toolName} ${entry.summary}`);
  }

  #approvalDecided(at: number, event: EventOf<'approval_granted' | 'approval_denied'>): void {
    const by = event.by === undefined ? {} : { by: clip(event.by, MAX_TITLE_CHARS) };
    const decision: Partial<ApprovalEntry> & Pick<ApprovalEntry, 'state'> =
      event.type === 'approval_granted'
        ? { state: 'approved', scope: event.scope, ...by }
        : {
            state: 'denied',
            denyReason: clip(event.reason, MAX_SUMMARY_CHARS),
            ...by,
            ...(event.timedOut ? { timedOut: true } : {}),
          };
    this.#approvals.decide(at, event.approvalId, decision);
    // One line per decision: the approval channel logs none of its own.
    const who = decision.by ? ` by ${decision.by}` : '';
    const what =
      decision.state === 'approved'
        ? `approved (${decision.scope ?? 'once'})${who}`
        : `${decision.timedOut ? 'timed out' : 'denied'}${who}: ${decision.denyReason ?? ''}`;
    this.#log(at, `approval ${event.approvalId} ${what}`);
  }

  /** The core stamps each cost event with the run's running totals (`RunEmitter`): shown as they are. */
  #cost(event: EventOf<'cost'>): void {
    if (event.model && !this.model) this.model = event.model;
    this.costReported = true;
    if (event.totals) this.#totals(event.totals);
  }

  #totals(totals: RunTotals): void {
    this.inputTokens = totals.inputTokens;
    this.outputTokens = totals.outputTokens;
    this.cacheReadTokens = totals.cacheReadTokens;
    this.usd = totals.usd;
    this.unpricedModels = totals.unpricedModels ?? [];
  }

  #error(at: number, message: string): void {
    this.lastError = clip(message, MAX_LOG_LINE_CHARS);
    this.#log(at, `error ${message}`);
  }

  #runEnd(at: number, event: EventOf<'run_end'>): void {
    this.endReason = event.reason;
    this.endMessage = event.message;
    this.durationMs = event.durationMs;
    this.#totals(event.totals);
    this.#approvals.endPending(at);
    this.#steps.closeAll(event.reason === 'completed', at);
    this.#log(at, `run ended: ${endReasonPhrase(event, ' — ')}`);
  }
}

/** Gives a tool step the title and parts of what it now is known to work on. */
function relabel(step: ProgressStep, toolName: string, input: unknown): void {
  if (step.kind !== 'tool') return;
  const label = toolStepLabel(toolName, input);
  step.title = label.title;
  step.tool = label.tool;
  if (label.target === undefined) delete step.target;
  else step.target = label.target;
}
