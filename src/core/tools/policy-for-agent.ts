import type { PermissionPolicy, PermissionRule } from './permission-policy.ts';

/** The names a policy may use for any agent: agent-mux's own tools' (docs/repo-config.md). */
export type PolicyToolName = 'shell' | 'write_file' | 'read_file';

/** An agent's own tools that do what a policy's name says (Claude Code's `shell` is `Bash`). */
export type NativeToolNames = Readonly<Partial<Record<PolicyToolName, readonly string[]>>>;

/**
 * The run's policy as an agent's tools see it: every rule naming `shell`, `write_file` or
 * `read_file` is followed, in its place, by the same rule for each of the agent's own tools that do
 * that (same decision, `when` and reason), so first-match order holds. A rule already naming an
 * agent's tool, or a glob, is kept as it is. `{ tool: shell, decision: deny }` then denies Claude
 * Code's `Bash`, Gemini's `run_shell_command` and OpenCode's `bash` — at launch (the agent's own
 * flags) and at run time (the approval prompt) alike.
 */
export function policyForAgent(policy: PermissionPolicy, names: NativeToolNames | undefined): PermissionPolicy {
  if (!names || !policy.rules?.length) return policy;
  const rules: PermissionRule[] = [];
  for (const rule of policy.rules) {
    rules.push(rule);
    const native = names[rule.tool as PolicyToolName];
    if (!native) continue;
    for (const tool of native) if (tool !== rule.tool) rules.push({ ...rule, tool });
  }
  return { ...policy, rules };
}
