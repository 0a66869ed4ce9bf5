import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';

/** The longest reason taken from an agent: more is the agent's essay, not its reason. */
const MAX_REASON_CHARS = 500;

/**
 * Why the agent asks, in its own words, where its permission request carries them: ACP v2's
 * permission prompt (`_meta.permission_prompt.description`, which codex-acp sends v2 clients), the
 * JetBrains AIR field (`_meta.jetbrains.air.permission.description`), or the tool call's own input
 * (`justification`, `reason`; Claude Code's Bash `description`). Undefined when none says.
 */
export function permissionReason(params: RequestPermissionRequest): string | undefined {
  const meta = record(params._meta);
  const raw = record((params.toolCall as { rawInput?: unknown }).rawInput);
  const candidates = [
    record(meta.permission_prompt).description,
    record(record(record(meta.jetbrains).air).permission).description,
    raw.justification,
    raw.reason,
    raw.description,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim()) return candidate.trim().slice(0, MAX_REASON_CHARS);
  }
  return undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
