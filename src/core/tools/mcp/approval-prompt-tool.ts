import { z } from 'zod';
import type { EventDraft } from '../../events/index.ts';
import type { ApprovalChannel, ApprovalRequest } from '../approval-channel.ts';
import { awaitApproval } from '../await-approval.ts';
import { createApprovalIdSource } from '../create-approval-id.ts';
import { formatZodIssues } from '../format-zod-issues.ts';
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
  /** Makes approval ids; default: 8 random characters, unique within this host (`createApprovalIdSource`). */
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
  const createApprovalId = options.createApprovalId ?? createApprovalIdSource();
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
        text: `invalid input for ${approvalPromptToolName}: ${formatZodIssues(parsed.error.issues)}`,
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
    const decision = await awaitApproval({
      channel: options.approvals,
      request,
      signal,
      timeoutMs,
      abortedReason: 'the request was cancelled before a decision',
      emit,
    });
    if (decision.kind === 'deny') return deny(`permission denied for ${toolName}: ${decision.reason}`);
    if (decision.scope === 'always') alwaysAllowed.add(toolName);
    return allow(input);
  }

  return { description, call };
}

function allow(input: Record<string, unknown>): McpToolReply {
  return { text: JSON.stringify({ behavior: 'allow', updatedInput: input }), isError: false };
}

function deny(message: string): McpToolReply {
  return { text: JSON.stringify({ behavior: 'deny', message }), isError: false };
}
