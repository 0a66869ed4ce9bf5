import type { EventDraft } from '../events/index.ts';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from './approval-channel.ts';
import { awaitApproval } from './await-approval.ts';
import { createApprovalIdSource } from './create-approval-id.ts';
import { formatZodIssues } from './format-zod-issues.ts';
import { decide, type PermissionPolicy, type PolicyVerdict } from './permission-policy.ts';
import { ToolError } from './tool-error.ts';
import type { ToolCallOptions, ToolDescription, ToolHost, ToolOutcome, ToolResult } from './tool-host.ts';
import { type AnyToolDefinition, createToolRegistry, type ToolContext, type ToolTask } from './tool-registry.ts';

export interface ToolHostOptions {
  runId: string;
  /** The run's workspace; file tools are confined to it. */
  workspacePath: string;
  tools: readonly AnyToolDefinition[];
  /** Default: ask for everything. */
  policy?: PermissionPolicy;
  /** Where `ask` decisions go. Without one, every `ask` is denied (`timedOut: true`). */
  approvals?: ApprovalChannel;
  /** Receives approval events and whatever the tools report. Errors it throws are ignored. */
  emit: (draft: EventDraft) => void;
  task: ToolTask;
  /** How long an approval may take before it counts as denied. Default 120 000 ms. */
  approvalTimeoutMs?: number;
  /** The run's signal: once aborted, pending approvals are denied and new calls fail. */
  signal?: AbortSignal;
  /** Makes approval ids; default: 8 random characters, unique within this host (`createApprovalIdSource`). */
  createApprovalId?: () => string;
}

/** A tool host for one run; `outcome` is what the agent recorded with `mark_complete` / `mark_failed`. */
export interface RunToolHost extends ToolHost {
  readonly outcome: ToolOutcome | undefined;
}

/**
 * The tool host of one run. A call goes: known tool → input valid → policy (`allow`, `deny`, or
 * `ask` the approval channel) → handler. Every refusal is an `ok: false` result with a reason;
 * `call` never throws. An `always` approval allows the same tool under the same policy rule for
 * the rest of the run (deny rules still win: they are decided first).
 */
export function createToolHost(options: ToolHostOptions): RunToolHost {
  const registry = createToolRegistry(options.tools);
  const policy = options.policy ?? {};
  const approvalTimeoutMs = options.approvalTimeoutMs ?? 120_000;
  const createApprovalId = options.createApprovalId ?? createApprovalIdSource();
  const grants = new Set<string>();
  let outcome: ToolOutcome | undefined;

  const emit = (draft: EventDraft): void => {
    try {
      options.emit(draft);
    } catch {
      // The sink's failure must not turn into a tool failure; the run's own reporting sees it.
    }
  };

  async function call(name: string, rawInput: unknown, callOptions: ToolCallOptions = {}): Promise<ToolResult> {
    try {
      const tool = registry.get(name);
      if (tool === undefined) {
        const known = registry.names();
        return fail(`unknown tool "${name}"; known tools: ${known.length > 0 ? known.join(', ') : '(none)'}`);
      }
      const parsed = tool.input.safeParse(rawInput ?? {});
      if (!parsed.success) return fail(`invalid input for ${name}: ${formatZodIssues(parsed.error.issues)}`);
      const input: unknown = parsed.data;

      const signal = combineSignals(options.signal, callOptions.signal);
      if (signal.aborted) return fail(`${name} was not run: the run was aborted`);

      const verdict = decide(policy, name, input);
      if (verdict.decision === 'deny') {
        return fail(`permission denied for ${name}: ${verdict.rule?.reason ?? describeVerdict(verdict, 'denies')}`);
      }
      if (verdict.decision === 'ask' && !grants.has(grantKey(name, verdict))) {
        const decision = await askApproval(name, input, verdict, signal, callOptions.toolCallId);
        if (decision.kind === 'deny') return fail(`permission denied for ${name}: ${decision.reason}`);
        if (decision.scope === 'always') grants.add(grantKey(name, verdict));
      }
      if (signal.aborted) return fail(`${name} was not run: the run was aborted`);

      const ctx: ToolContext = {
        runId: options.runId,
        workspacePath: options.workspacePath,
        signal,
        emit,
        task: options.task,
        toolCallId: callOptions.toolCallId,
        get outcome() {
          return outcome;
        },
        recordOutcome(next) {
          if (outcome !== undefined) {
            throw new ToolError(name, `the run's outcome is already recorded as ${outcome.status}`);
          }
          outcome = next;
        },
      };
      return { ok: true, value: await tool.handler(input, ctx) };
    } catch (error) {
      return fail(errorMessage(error));
    }
  }

  async function askApproval(
    toolName: string,
    input: unknown,
    verdict: PolicyVerdict,
    signal: AbortSignal,
    toolCallId: string | undefined,
  ): Promise<ApprovalDecision> {
    const request: ApprovalRequest = {
      approvalId: createApprovalId(),
      runId: options.runId,
      toolName,
      input,
      reason: verdict.rule?.reason ?? describeVerdict(verdict, 'asks before running it'),
      toolCallId,
    };
    return awaitApproval({
      channel: options.approvals,
      request,
      signal,
      timeoutMs: approvalTimeoutMs,
      abortedReason: 'the run was aborted before a decision',
      emit,
    });
  }

  return {
    list: (): ToolDescription[] => registry.describe(),
    call,
    get outcome() {
      return outcome;
    },
  };
}

function fail(error: string): ToolResult {
  return { ok: false, error };
}

function grantKey(toolName: string, verdict: PolicyVerdict): string {
  return `${toolName}\u0000${verdict.ruleIndex ?? 'default'}`;
}

function describeVerdict(verdict: PolicyVerdict, verb: string): string {
  if (verdict.rule === undefined) return `the policy's default ${verb}`;
  return `permission rule ${verdict.ruleIndex} (tool "${verdict.rule.tool}") ${verb}`;
}

function combineSignals(...signals: (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length === 1) return present[0]!;
  return present.length === 0 ? new AbortController().signal : AbortSignal.any(present);
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}
