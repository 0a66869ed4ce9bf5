import type { AgentEvent } from '../../core/events/index.ts';
import type { RunEndReason } from '../../core/events/run-events.ts';
import { clip, formatClock, truncate } from './markdown.ts';
import { RollingLog } from './rolling-log.ts';
import { type RunStatus, runStatus } from './run-lifecycle.ts';

/** One item of the checklist: a `progress` summary or a tool call. */
export interface ProgressStep {
  id: string;
  kind: 'progress' | 'tool';
  title: string;
  state: 'running' | 'done' | 'failed';
}

/**
 * When a step ran, from event timestamps (ms): `startedAt` is the event that opened it, `endedAt`
 * the one that closed it (undefined while it runs). Kept beside the step (`RunProgress.stepTimes`)
 * rather than on it, so a step stays the plain record the reports compare.
 */
export interface StepTimes {
  startedAt: number;
  endedAt: number | undefined;
}

/** A tool-permission request and what became of it. */
export interface ApprovalEntry {
  id: string;
  toolName: string;
  /** The arguments on one line (already redacted by the core), cut short. */
  summary: string;
  /** Why the agent asked, when it said. */
  reason?: string;
  state: 'pending' | 'approved' | 'denied';
  by?: string;
  scope?: 'once' | 'always';
  /** The reason given on denial. */
  denyReason?: string;
  timedOut?: boolean;
}

/**
 * When an approval was asked and decided, from event timestamps (ms); `decidedAt` is the `run_end`
 * when the run ended first, undefined while pending. Kept beside the entry (`RunProgress.approvalTimes`).
 */
export interface ApprovalTimes {
  askedAt: number;
  decidedAt: number | undefined;
}

/** A command the agent's restriction refused (a read-only sandbox), from a failed tool result. */
export interface RefusedCall {
  /** What was run: the command, path or tool name, cut short. */
  target: string;
  /** The refusal as the tool's output worded it (`Read-only file system`). */
  reason: string;
}

/** How many refused calls are kept (the first ones). */
const MAX_REFUSED = 20;

/** What a sandbox's refusal looks like in a command's output (Linux errno texts, Codex's own words). */
const REFUSAL = /read-only file system|operation not permitted|permission denied|sandbox denied|landlock|seccomp/i;

/** The longest line the progress log keeps. */
export const MAX_LOG_LINE_CHARS = 500;
const MAX_TITLE_CHARS = 120;
const MAX_SUMMARY_CHARS = 200;

/** Argument fields that best name what a tool call works on, in order of preference. */
const TARGET_FIELDS = ['path', 'file_path', 'filePath', 'command', 'cmd', 'pattern', 'url', 'query', 'description'];

/** A value on one short line: strings as they are, anything else as JSON. */
export function summarize(value: unknown, max = MAX_SUMMARY_CHARS): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return clip(value, max);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = String(value);
  }
  return clip(json ?? String(value), max);
}

function toolTarget(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  for (const field of TARGET_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return clip(value, MAX_TITLE_CHARS);
  }
  return undefined;
}

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
  /** The run's duration as `run_end` reported it. */
  durationMs: number | undefined;
  inputTokens = 0;
  outputTokens = 0;
  cacheReadTokens = 0;
  usd = 0;
  readonly steps: ProgressStep[] = [];
  readonly approvals: ApprovalEntry[] = [];
  /** Files the agent wrote, in order, without repeats. */
  readonly files: string[] = [];
  lastError: string | undefined;
  /** What the run's user should know about how the policy was applied (`notice` events), in order. */
  readonly notices: { code: 'read_only' | 'restricted'; message: string }[] = [];
  /** Calls refused by a restriction a notice announced (`read_only`), the first ones. */
  readonly refused: RefusedCall[] = [];
  endReason: RunEndReason | undefined;
  endMessage: string | undefined;
  /** One line per meaningful event, newest kept. */
  readonly log: RollingLog;
  /** How many events were applied. */
  events = 0;

  readonly #steps = new Map<string, ProgressStep>();
  readonly #stepTimes = new Map<ProgressStep, StepTimes>();
  readonly #approvalTimes = new Map<ApprovalEntry, ApprovalTimes>();
  readonly #approvals = new Map<string, ApprovalEntry>();
  readonly #files = new Set<string>();
  readonly #fileSuffixes = new Set<string>();
  readonly #targets = new Map<string, string>();
  #message = '';
  #messageAt = 0;
  /** True once the current message's text came as deltas (its `message_stop.text` then repeats it). */
  #messageStreamed = false;
  #progressCount = 0;

  constructor(init: { agent: string; model?: string; logLimit?: number }) {
    this.agent = init.agent;
    this.model = init.model;
    this.log = new RollingLog(init.logLimit);
  }

  /** Where the run stands: from how it ended, else the approvals it waits for, else whether an event came. */
  get status(): RunStatus {
    return runStatus({
      endReason: this.endReason,
      pending: this.approvals.reduce((n, a) => (a.state === 'pending' ? n + 1 : n), 0),
      started: this.startedAt !== undefined,
    });
  }

  /** Time from the first event to `run_end` (or to the latest event while running). */
  get elapsedMs(): number {
    if (this.durationMs !== undefined) return this.durationMs;
    return this.startedAt === undefined || this.lastEventAt === undefined ? 0 : this.lastEventAt - this.startedAt;
  }

  /** The newest step still running, if any. */
  get currentStep(): ProgressStep | undefined {
    for (let i = this.steps.length - 1; i >= 0; i--) if (this.steps[i]!.state === 'running') return this.steps[i];
    return undefined;
  }

  /** When `step` (one of `steps`) started and ended; undefined for a step this progress does not hold. */
  stepTimes(step: ProgressStep): StepTimes | undefined {
    const times = this.#stepTimes.get(step);
    return times && { ...times };
  }

  /** When `approval` (one of `approvals`) was asked and decided; undefined for an entry this progress does not hold. */
  approvalTimes(approval: ApprovalEntry): ApprovalTimes | undefined {
    const times = this.#approvalTimes.get(approval);
    return times && { ...times };
  }

  /** Approvals nobody decided yet. */
  get pendingApprovals(): ApprovalEntry[] {
    return this.approvals.filter((a) => a.state === 'pending');
  }

  /** The agent's message being streamed, as its log line will read (not in `log` yet). */
  get pendingMessageLine(): string | undefined {
    return this.#message === '' ? undefined : this.#line(this.#messageAt, `agent: ${this.#message}`);
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
    this.#closeSteps(ok, this.lastEventAt ?? this.startedAt ?? 0);
  }

  /** Applies one normalized event. */
  apply(event: AgentEvent): void {
    this.events++;
    this.startedAt ??= event.timestamp;
    this.lastEventAt = event.timestamp;
    const at = event.timestamp;
    if (event.type === 'text_delta') {
      if (this.#message === '') this.#messageAt = at;
      if (this.#message.length < MAX_LOG_LINE_CHARS) this.#message += event.delta.slice(0, MAX_LOG_LINE_CHARS * 2);
      if (this.#message.trim() === '') this.#message = '';
      else this.#messageStreamed = true;
      return;
    }
    if (event.type === 'message_stop') {
      // The whole text stands in for deltas that never came; after deltas it repeats what is logged.
      if (!this.#messageStreamed && event.text?.trim()) {
        this.#message = event.text.slice(0, MAX_LOG_LINE_CHARS * 2);
        this.#messageAt = at;
      }
      this.#flushMessage();
      this.#messageStreamed = false;
      return;
    }
    if (event.type === 'message_start') {
      this.#flushMessage();
      this.#messageStreamed = false;
    }
    if (isQuiet(event)) return;
    // The streamed message is flushed by the next line logged (`#log`), not by events that log
    // nothing (a `cost` between the last delta and `message_stop`): the message stays one line.
    this.#applyOther(event, at);
  }

  #applyOther(event: AgentEvent, at: number): void {
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
        this.#addFile(event.path);
        this.#log(at, `file written: ${event.path}`);
        return;
      case 'image_output':
        this.#log(at, `image ${event.mimeType}${event.path ? ` ${event.path}` : ''}`);
        return;
      case 'comment':
        this.#log(at, `comment: ${event.text}`);
        return;
      case 'skill_invoked':
        this.#log(at, `skill ${event.name}`);
        return;
      case 'plugin_invoked':
        this.#log(at, `plugin ${event.pluginId}${event.action ? ` ${event.action}` : ''}`);
        return;
      case 'approval_request':
        this.#approvalRequest(at, event.approvalId, event.toolName, event.input, event.reason);
        return;
      case 'approval_granted':
        this.#approvalDecided(at, event.approvalId, {
          state: 'approved',
          scope: event.scope,
          ...(event.by === undefined ? {} : { by: clip(event.by, MAX_TITLE_CHARS) }),
        });
        return;
      case 'approval_denied':
        this.#approvalDecided(at, event.approvalId, {
          state: 'denied',
          denyReason: clip(event.reason, MAX_SUMMARY_CHARS),
          ...(event.by === undefined ? {} : { by: clip(event.by, MAX_TITLE_CHARS) }),
          ...(event.timedOut ? { timedOut: true } : {}),
        });
        return;
      case 'cost':
        this.#cost(event);
        return;
      case 'notice':
        this.notices.push({ code: event.code, message: clip(event.message, MAX_LOG_LINE_CHARS) });
        this.#log(at, `notice: ${event.message}`);
        return;
      case 'error':
        this.#error(at, `${event.code}: ${event.message}`);
        return;
      case 'auth_error':
        this.#error(at, `auth: ${event.message}${event.guidance ? ` (${event.guidance})` : ''}`);
        return;
      case 'rate_limit_error':
        this.#error(at, `rate limited: ${event.message}`);
        return;
      case 'context_exceeded':
        this.#error(at, `context exceeded${event.message ? `: ${event.message}` : ''}`);
        return;
      case 'crash': {
        const how = event.signal ? `signal ${event.signal}` : `exit code ${event.exitCode ?? '?'}`;
        const tail = event.stderr.trim().split('\n').at(-1) ?? '';
        this.#error(at, `crashed (${how})${tail ? `: ${tail}` : ''}`);
        return;
      }
      case 'log':
        this.#log(at, `${event.source}: ${event.line}`);
        return;
      case 'turn_end':
        if (event.isError && event.result) this.#error(at, `turn failed: ${event.result}`);
        return;
      case 'run_end':
        this.#runEnd(at, event);
        return;
      default:
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

  #flushMessage(): void {
    if (this.#message === '') return;
    const line = this.pendingMessageLine;
    this.#message = '';
    if (line) this.log.push(line);
  }

  #addStep(at: number, step: ProgressStep): void {
    this.steps.push(step);
    this.#steps.set(step.id, step);
    this.#stepTimes.set(step, { startedAt: at, endedAt: undefined });
  }

  #endStep(at: number, step: ProgressStep, state: 'done' | 'failed'): void {
    step.state = state;
    const times = this.#stepTimes.get(step);
    if (times && times.endedAt === undefined) times.endedAt = Math.max(at, times.startedAt);
  }

  #progress(at: number, summary: string): void {
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const step = this.steps[i]!;
      if (step.kind === 'progress' && step.state === 'running') {
        this.#endStep(at, step, 'done');
        break;
      }
    }
    this.#addStep(at, {
      id: `progress-${++this.#progressCount}`,
      kind: 'progress',
      title: clip(summary, MAX_TITLE_CHARS),
      state: 'running',
    });
    this.#log(at, `progress: ${summary}`);
  }

  #toolTitle(toolName: string, input: unknown): string {
    const target = toolTarget(input);
    return truncate(target ? `${toolName} ${target}` : toolName, MAX_TITLE_CHARS);
  }

  #toolStart(at: number, id: string, toolName: string, input?: unknown): void {
    const existing = this.#steps.get(id);
    if (existing) {
      if (input !== undefined) existing.title = this.#toolTitle(toolName, input);
      return;
    }
    this.#addStep(at, { id, kind: 'tool', title: this.#toolTitle(toolName, input), state: 'running' });
    this.#log(at, `tool ${toolName}`);
  }

  #toolReady(at: number, id: string, toolName: string, input: unknown): void {
    const step = this.#steps.get(id);
    if (step) step.title = this.#toolTitle(toolName, input);
    else this.#toolStart(at, id, toolName, input);
    this.#targets.set(id, toolTarget(input) ?? toolName);
    if (toolName === 'write_file' || toolName === 'Write' || toolName === 'Edit' || toolName === 'edit_file') {
      const target = toolTarget(input);
      if (target) this.#addFile(target);
    }
  }

  #toolEnd(at: number, id: string, toolName: string | undefined, isError: boolean, output: unknown, ms?: number) {
    const step = this.#steps.get(id);
    if (step) this.#endStep(at, step, isError ? 'failed' : 'done');
    if (isError) this.#refusal(id, toolName, output);
    const name = step?.title ?? toolName ?? id;
    const took = ms === undefined ? '' : ` (${Math.round(ms)} ms)`;
    const detail = summarize(output);
    this.#log(at, `tool ${name} ${isError ? 'failed' : 'done'}${took}${detail ? `: ${detail}` : ''}`);
  }

  /** A failed call whose output reads like a sandbox refusal, while a `read_only` notice is in force. */
  #refusal(id: string, toolName: string | undefined, output: unknown): void {
    if (this.refused.length >= MAX_REFUSED || !this.notices.some((n) => n.code === 'read_only')) return;
    const text = typeof output === 'string' ? output.slice(0, 100_000) : summarize(output, 4000);
    const match = REFUSAL.exec(text);
    if (!match) return;
    const target = this.#targets.get(id) ?? toolName ?? id;
    this.refused.push({ target: clip(target, MAX_TITLE_CHARS), reason: clip(match[0], MAX_TITLE_CHARS) });
  }

  #addFile(file: string): void {
    const path = truncate(file, 1000);
    if (this.#files.has(path) || this.#fileSuffixes.has(path)) return;
    // A tool's relative path and the absolute path of its file_output name the same file.
    const suffixes: string[] = [];
    for (let slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
      const suffix = path.slice(slash + 1);
      if (this.#files.has(suffix)) return;
      if (suffix !== '') suffixes.push(suffix);
    }
    for (const suffix of suffixes) this.#fileSuffixes.add(suffix);
    this.#files.add(path);
    this.files.push(path);
  }

  #approvalRequest(at: number, id: string, toolName: string, input: unknown, reason?: string): void {
    const entry: ApprovalEntry = {
      id,
      toolName: clip(toolName, MAX_TITLE_CHARS),
      summary: summarize(input),
      state: 'pending',
      ...(reason === undefined ? {} : { reason: clip(reason, MAX_SUMMARY_CHARS) }),
    };
    const known = this.#approvals.get(id);
    // Asked again (a retried request): the new one replaces the old one in place.
    if (known) this.approvals[this.approvals.indexOf(known)] = entry;
    else this.approvals.push(entry);
    this.#approvals.set(id, entry);
    this.#approvalTimes.set(entry, { askedAt: at, decidedAt: undefined });
    this.#log(at, `approval ${id} requested: ${entry.toolName} ${entry.summary}`);
  }

  #approvalDecided(at: number, id: string, decision: Partial<ApprovalEntry> & Pick<ApprovalEntry, 'state'>): void {
    const entry = this.#approvals.get(id);
    if (entry) {
      Object.assign(entry, decision);
      this.#decided(at, entry);
    }
    const by = decision.by ? ` by ${decision.by}` : '';
    const what =
      decision.state === 'approved'
        ? `granted (${decision.scope ?? 'once'})${by}`
        : `${decision.timedOut ? 'timed out' : 'denied'}${by}: ${decision.denyReason ?? ''}`;
    this.#log(at, `approval ${id} ${what}`);
  }

  #decided(at: number, entry: ApprovalEntry): void {
    const times = this.#approvalTimes.get(entry);
    if (times) times.decidedAt = Math.max(at, times.askedAt);
  }

  #cost(event: Extract<AgentEvent, { type: 'cost' }>): void {
    if (event.model && !this.model) this.model = event.model;
    if (event.cumulative) {
      this.inputTokens = event.inputTokens;
      this.outputTokens = event.outputTokens;
      this.cacheReadTokens = event.cacheReadTokens ?? this.cacheReadTokens;
      if (event.usd !== undefined) this.usd = event.usd;
    } else {
      this.inputTokens += event.inputTokens;
      this.outputTokens += event.outputTokens;
      this.cacheReadTokens += event.cacheReadTokens ?? 0;
      this.usd += event.usd ?? 0;
    }
  }

  #error(at: number, message: string): void {
    this.lastError = clip(message, MAX_LOG_LINE_CHARS);
    this.#log(at, `error ${message}`);
  }

  #runEnd(at: number, event: Extract<AgentEvent, { type: 'run_end' }>): void {
    this.endReason = event.reason;
    this.endMessage = event.message;
    this.durationMs = event.durationMs;
    this.inputTokens = event.totals.inputTokens;
    this.outputTokens = event.totals.outputTokens;
    this.cacheReadTokens = event.totals.cacheReadTokens;
    this.usd = event.totals.usd;
    for (const approval of this.approvals) {
      if (approval.state !== 'pending') continue;
      approval.state = 'denied';
      approval.denyReason = 'the run ended first';
      this.#decided(at, approval);
    }
    this.#closeSteps(event.reason === 'completed', at);
    this.#log(at, `run ended: ${event.reason}${event.message ? ` — ${event.message}` : ''}`);
  }

  #closeSteps(ok: boolean, at: number): void {
    for (const step of this.steps) if (step.state === 'running') this.#endStep(at, step, ok ? 'done' : 'failed');
  }
}

/** Events that change nothing the reports show. */
function isQuiet(event: AgentEvent): boolean {
  switch (event.type) {
    case 'debug':
    case 'tool_input_delta':
    case 'thinking_start':
    case 'thinking_delta':
    case 'thinking_stop':
    case 'turn_start':
    case 'skill_loaded':
    case 'plugin_loaded':
    case 'session_fork':
      return true;
    default:
      return false;
  }
}
