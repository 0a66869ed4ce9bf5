import type { PermissionPolicy } from '../../../core/tools/permission-policy.ts';

/** One allowlist entry of llm-gateway's `Permissions` (`packages/ai/types.ts`): a tool name glob. */
export interface ChatSseToolPermission {
  tool: string;
  params?: Record<string, string>;
}

/** The `permissions` field of llm-gateway's `POST /chat` body. */
export interface ChatSsePermissions {
  allowlist?: ChatSseToolPermission[];
  allowOnce?: ChatSseToolPermission[];
  deny?: Array<{ toolCallId: string; reason?: string }>;
}

/**
 * Maps the run's policy onto what llm-gateway accepts. The server runs a tool without asking only
 * when it matches `allowlist`; every other call pauses the agent with a `relay` event, which the
 * session answers by deciding the policy locally (allow, deny, or ask the approval channel).
 *
 * - No policy, or one that allows everything: `undefined` (the field is left out, and the server
 *   allows every tool, its default).
 * - Otherwise the allowlist holds the `allow` rules without `when` that come before every `ask`
 *   and `deny` rule (so no earlier rule could have decided otherwise). Rules with `when` are decided at relay time with agent-mux's own
 *   glob semantics, never handed to the server's matcher.
 */
export function chatSsePermissions(policy: PermissionPolicy | undefined): ChatSsePermissions | undefined {
  if (policy === undefined) return undefined;
  const rules = policy.rules ?? [];
  const allowlist: ChatSseToolPermission[] = [];
  let shadowed = false;
  for (const rule of rules) {
    if (rule.decision !== 'allow') {
      shadowed = true;
      break;
    }
    if (rule.when === undefined) allowlist.push({ tool: rule.tool });
  }
  const onlyAllow = !shadowed && rules.every((rule) => rule.when === undefined);
  // Everything allowed: leave the field out, the server's own "allow all".
  if (onlyAllow && (policy.default ?? 'ask') === 'allow') return undefined;
  return { allowlist };
}
