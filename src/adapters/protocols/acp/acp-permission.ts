import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { EventDraft } from '../../../core/events/index.ts';
import type { ApprovalChannel, ApprovalDecision } from '../../../core/tools/approval-channel.ts';
import { awaitApproval } from '../../../core/tools/await-approval.ts';
import { decide, type PermissionPolicy } from '../../../core/tools/permission-policy.ts';
import { stricter } from '../../../core/tools/tool-aliases.ts';
import { permissionReason } from './acp-permission-reason.ts';
import { acpToolInput, acpToolName } from './acp-tool-fields.ts';

export interface AcpPermissionContext {
  runId: string;
  approvals?: ApprovalChannel;
  policy?: PermissionPolicy;
  /** Tool names approved `always` earlier in this run (the grant lasts for the run only). */
  grants: Set<string>;
  createApprovalId: () => string;
  emit: (draft: EventDraft) => void;
  /** Aborted when the turn is cancelled: the answer is then `cancelled`. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Why the agent asks for a tool call, from its own log, where its request leaves it out. */
  reasonFor?: (toolCallId: string) => Promise<string | undefined>;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/**
 * Answers `session/request_permission` through the run's policy and approval channel, as the
 * tool host and the MCP approval prompt do: policy `allow` picks an allow option without asking,
 * `deny` a reject option, `ask` goes to the channel (`approval_request` / `approval_granted` /
 * `approval_denied`). An `always` approval allows that tool for the rest of the run, here (see
 * {@link pickOption}). A cancelled turn answers `cancelled`, as the protocol requires.
 */
export async function answerPermission(
  params: RequestPermissionRequest,
  ctx: AcpPermissionContext,
): Promise<RequestPermissionResponse> {
  if (ctx.signal.aborted) return CANCELLED;
  const call = params.toolCall as unknown as Record<string, unknown>;
  const toolName = acpToolName(call);
  const input = acpToolInput(call);
  const decision = await decideOnce(toolName, input, params, ctx);
  if (ctx.signal.aborted) return CANCELLED;
  if (decision.kind === 'approve' && decision.scope === 'always') ctx.grants.add(grantKey(toolName, input));
  const option = pickOption(params.options, decision);
  return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : CANCELLED;
}

async function decideOnce(
  toolName: string,
  input: Record<string, unknown>,
  params: RequestPermissionRequest,
  ctx: AcpPermissionContext,
): Promise<ApprovalDecision> {
  const toolCallId = params.toolCall.toolCallId;
  if (ctx.grants.has(grantKey(toolName, input))) return { kind: 'approve', scope: 'always' };
  const verdict = decideByEffect(ctx.policy ?? {}, toolName, input);
  if (verdict.decision === 'allow') return { kind: 'approve', scope: 'once' };
  if (verdict.decision === 'deny') {
    return { kind: 'deny', reason: verdict.rule?.reason ?? `the policy denies ${toolName}` };
  }
  const title = typeof input.title === 'string' ? input.title : toolName;
  const said = permissionReason(params) ?? (await ctx.reasonFor?.(toolCallId).catch(() => undefined));
  if (ctx.signal.aborted) return { kind: 'deny', reason: 'the turn was cancelled before a decision' };
  return awaitApproval({
    channel: ctx.approvals,
    request: {
      approvalId: ctx.createApprovalId(),
      runId: ctx.runId,
      toolName,
      input,
      reason: said ? `the agent says: ${said}` : `the agent asks before running ${title}`,
      toolCallId,
    },
    signal: ctx.signal,
    timeoutMs: ctx.timeoutMs,
    abortedReason: 'the turn was cancelled before a decision',
    emit: ctx.emit,
  });
}

/**
 * The policy's tool names for what an ACP tool kind does. The name an agent gives its tool is its
 * own choice (a shell call can call itself `read_file`): the decision is the strictest of the one
 * for that name and the ones for what its kind does. A kind that says nothing (`other`, none) is
 * taken as a command.
 */
const KIND_TOOLS: Record<string, readonly string[]> = {
  read: ['read_file'],
  search: ['read_file'],
  fetch: ['fetch'],
  think: [],
  switch_mode: [],
  edit: ['write_file'],
  delete: ['write_file'],
  move: ['write_file'],
  execute: ['shell'],
};

/** The strictest verdict over the tool's own name and the names of what its kind does. */
export function decideByEffect(
  policy: PermissionPolicy,
  toolName: string,
  input: Record<string, unknown>,
): ReturnType<typeof decide> {
  const kind = typeof input.kind === 'string' ? input.kind : 'other';
  const names = KIND_TOOLS[kind] ?? ['shell'];
  let verdict = decide(policy, toolName, input);
  for (const name of names) {
    const other = decide(policy, name, input);
    if (stricter(verdict.decision, other.decision) !== verdict.decision) verdict = other;
  }
  return verdict;
}

/** An `always` grant holds for the tool under that name and kind only. */
const grantKey = (toolName: string, input: Record<string, unknown>) => `${toolName}\u0000${String(input.kind ?? '')}`;

/**
 * The option that says what was decided: approve → `allow_once` (else `allow_always`), deny →
 * `reject_once` (else `reject_always`). An `always` approval is also answered `allow_once`: the
 * grant is the run's, kept by the client ({@link AcpPermissionContext.grants}), while an agent's
 * `allow_always` outlives the run — Qwen Code writes it as a rule into the workspace's or the
 * user's `.qwen/settings.json` (in the repository's tree, on GitHub), Codex records an exec-policy
 * amendment. Undefined when the agent offers none of them.
 */
export function pickOption(
  options: readonly PermissionOption[],
  decision: ApprovalDecision,
): PermissionOption | undefined {
  const order = decision.kind === 'deny' ? ['reject_once', 'reject_always'] : ['allow_once', 'allow_always'];
  for (const kind of order) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}
