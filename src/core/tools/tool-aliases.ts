import {
  type PermissionDecision,
  type PermissionPolicy,
  type PolicyVerdict,
  ruleMatches,
} from './permission-policy.ts';

/**
 * One tool under all the names a policy may give it: `name` is the one agent-mux shows in its
 * events (Codex's shell: `exec_command`), `aliases` the other names the same tool goes by (`shell`,
 * `local_shell`). A rule naming any of them applies to the one tool.
 */
export interface ToolAliases {
  readonly name: string;
  readonly aliases: readonly string[];
}

/** The canonical name first, then the aliases. */
export function toolNames(tool: ToolAliases): readonly string[] {
  return [tool.name, ...tool.aliases];
}

/**
 * The policy's decision for one call of a tool known by several names: the first rule (in policy
 * order) that matches the call under any of the names decides, else the default. The same as
 * `decide` for a tool without aliases.
 */
export function decideAliased(policy: PermissionPolicy, tool: ToolAliases, input: unknown): PolicyVerdict {
  const names = toolNames(tool);
  for (const [ruleIndex, rule] of (policy.rules ?? []).entries()) {
    if (names.some((name) => ruleMatches(rule, name, input))) return { decision: rule.decision, rule, ruleIndex };
  }
  return { decision: policy.default ?? 'ask' };
}

const strictness: Record<PermissionDecision, number> = { allow: 0, ask: 1, deny: 2 };
/** The stricter of two decisions (deny over ask over allow). */
export const stricter = (a: PermissionDecision, b: PermissionDecision): PermissionDecision =>
  strictness[a] >= strictness[b] ? a : b;

/**
 * The decision an agent's own mechanism (a sandbox, a tool flag) can enforce for a tool before any
 * call, when it cannot look at arguments: the first rule without `when` that names the tool (under
 * any of its names) decides, else the default. A `deny` or `ask` rule met before it that narrows by
 * arguments may apply to some calls, so it makes the result at least `ask`; an `allow` rule that
 * narrows by arguments cannot be relied on and is passed over.
 */
export function decideWithoutArguments(policy: PermissionPolicy, tool: ToolAliases): PermissionDecision {
  const names = toolNames(tool);
  let floor: PermissionDecision = 'allow';
  for (const rule of policy.rules ?? []) {
    const named = names.some((name) => ruleMatches({ ...rule, when: undefined }, name, undefined));
    if (!named) continue;
    if (rule.when === undefined) return stricter(floor, rule.decision);
    if (rule.decision !== 'allow') floor = stricter(floor, 'ask');
  }
  return stricter(floor, policy.default ?? 'ask');
}
