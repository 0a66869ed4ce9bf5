import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { EventDraft } from '../../events/index.ts';
import type { ApprovalChannel, ApprovalDecision, ApprovalRequest } from '../approval-channel.ts';
import type { ToolDescription } from '../tool-host.ts';

/** The name of the permission-prompt tool: Claude Code is given `--permission-prompt-tool mcp__<server>__approval_prompt`. */
export const approvalPromptToolName = 'approval_prompt';

export interface PermissionPromptOptions {
  /** Where the questions go. */
  approvals: ApprovalChannel;
  /** The run the approvals belong to (`ApprovalRequest.runId`). */
  runId: string;
  /** How long a question may stay open before it counts as denied (`timedOut: true`). Default 120 000 ms. */
  timeoutMs?: number;
  /** Receives `approval_request`, `approval_granted` and `approval_denied` drafts. Errors it throws are ignored. */
  emit?: (draft: EventDraft) => void;
  /** Makes approval ids; default `randomUUID()`. */
  createApprovalId?: () => string;
}

export interface ApprovalPromptToolOptions extends PermissionPromptOptions {
  /**
   * Tool names allowed without asking: the agent's names for this server's own tools
   * (`mcp__<server>__write_file`), which the tool host already checks against the run's policy.
   */
  isPreapproved?: (toolName: string) => boolean;
}

/** What an MCP tool call answers: one text content and whether it is an error. */
export interface McpToolReply {
  text: string;
  isError: boolean;
}

/** The `approval_prompt` tool: its description for `tools/list` and what a call does. */
export interface ApprovalPromptTool {
  readonly description: ToolDescription;
  call(input: unknown, signal: AbortSignal): Promise<McpToolReply>;
}

/**
 * The input Claude Code sends to its `--permission-prompt-tool` (its `PermissionPromptToolResultSchema`
 * module): the tool it wants to run, that tool's input and the `tool_use` id. Unknown keys are dropped.
 */
const promptInputSchema = z.object({
  tool_name: z.string().min(1).describe('The name of the tool asking for permission.'),
  input: z.record(z.string(), z.unknown()).describe('The input the tool would run with.'),
  tool_use_id: z.string().optional().describe('The id of the tool use asking for permission.'),
});

/**
 * The tool Claude Code calls before running a tool its own permission rules do not allow
 * (`claude -p --permission-prompt-tool mcp__<server>__approval_prompt`).
 *
 * Contract, as Claude Code validates it: the input is `{ tool_name, input, tool_use_id? }`; the result's
 * first text content is a JSON string, either `{"behavior":"allow","updatedInput":{…}}` (the input to run
 * the tool with, here unchanged) or `{"behavior":"deny","message":"…"}` (the message is shown to the model).
 *
 * Each question goes to the approval channel with `approval_request` / `approval_granted` /
 * `approval_denied` drafts, as the tool host's own questions do. No answer within `timeoutMs`, or a
 * cancelled call, is a denial. An `always` approval allows that tool name, whatever its input, for the
 * rest of this tool's life.
 */
export function createApprovalPromptTool(options: ApprovalPromptToolOptions): ApprovalPromptTool {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const createApprovalId = options.createApprovalId ?? randomUUID;
  const alwaysAllowed = new Set<string>();
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(promptInputSchema, { io: 'input' });
  const description: ToolDescription = {
    name: approvalPromptToolName,
    description:
      'Asks a human whether a tool may run. Answers a JSON string: {"behavior":"allow","updatedInput":{...}} or {"behavior":"deny","message":"..."}.',
    inputSchema,
  };

  const emit = (draft: EventDraft): void => {
    try {
      options.emit?.(draft);
    } catch {
      // A failing sink must not change the decision.
    }
  };

  async function call(rawInput: unknown, signal: AbortSignal): Promise<McpToolReply> {
    const parsed = promptInputSchema.safeParse(rawInput ?? {});
    if (!parsed.success) {
      return {
        text: `invalid input for ${approvalPromptToolName}: ${formatIssues(parsed.error.issues)}`,
        isError: true,
      };
    }
    const { tool_name: toolName, input, tool_use_id: toolCallId } = parsed.data;
    if (alwaysAllowed.has(toolName) || options.isPreapproved?.(toolName) === true) return allow(input);

    const request: ApprovalRequest = {
      approvalId: createApprovalId(),
      runId: options.runId,
      toolName,
      input,
      reason: `the agent asks before running ${toolName}`,
      ...(toolCallId === undefined ? {} : { toolCallId }),
    };
    emit({
      type: 'approval_request',
      approvalId: request.approvalId,
      toolName,
      input,
      reason: request.reason,
      ...(toolCallId === undefined ? {} : { toolCallId }),
    });
    const decision = await waitForDecision(request, signal);
    if (decision.kind === 'approve') {
      emit({ type: 'approval_granted', approvalId: request.approvalId, scope: decision.scope, by: decision.by });
      if (decision.scope === 'always') alwaysAllowed.add(toolName);
      return allow(input);
    }
    emit({
      type: 'approval_denied',
      approvalId: request.approvalId,
      reason: decision.reason,
      by: decision.by,
      timedOut: decision.timedOut,
    });
    return deny(`permission denied for ${toolName}: ${decision.reason}`);
  }

  async function waitForDecision(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const waitSignal = AbortSignal.any([signal, timeout]);
    const onStop = (): ApprovalDecision =>
      timeout.aborted && !signal.aborted
        ? { kind: 'deny', reason: `no decision within ${timeoutMs} ms`, timedOut: true }
        : { kind: 'deny', reason: 'the request was cancelled before a decision' };
    if (waitSignal.aborted) return onStop();

    let removeListener = (): void => {};
    const stopped = new Promise<ApprovalDecision>((resolve) => {
      const listener = () => resolve(onStop());
      waitSignal.addEventListener('abort', listener, { once: true });
      removeListener = () => waitSignal.removeEventListener('abort', listener);
    });
    const answered = Promise.resolve()
      .then(() => options.approvals.request(request, waitSignal))
      .then(normalizeDecision, (error: unknown) => ({
        kind: 'deny' as const,
        reason: `the approval channel failed: ${error instanceof Error ? error.message : String(error)}`,
      }));
    try {
      const decision = await Promise.race([answered, stopped]);
      // A channel that saw the same abort may answer first with its own words; ours are exact.
      return decision.kind === 'deny' && waitSignal.aborted ? onStop() : decision;
    } finally {
      removeListener();
    }
  }

  return { description, call };
}

function allow(input: Record<string, unknown>): McpToolReply {
  return { text: JSON.stringify({ behavior: 'allow', updatedInput: input }), isError: false };
}

function deny(message: string): McpToolReply {
  return { text: JSON.stringify({ behavior: 'deny', message }), isError: false };
}

/** A channel that answers something other than a decision is treated as a denial. */
function normalizeDecision(decision: ApprovalDecision): ApprovalDecision {
  if (decision?.kind === 'approve') {
    return { kind: 'approve', scope: decision.scope === 'always' ? 'always' : 'once', by: decision.by };
  }
  if (decision?.kind === 'deny') return decision;
  return { kind: 'deny', reason: 'the approval channel gave no decision' };
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const message = issue.message.replace(/^Invalid input: /, '');
      return path === '' ? message : `${path}: ${message}`;
    })
    .join('; ');
}
