import type { PermissionPolicy, PermissionRule } from '../../../core/tools/permission-policy.ts';

/**
 * The run's permission policy mapped onto the approval machinery Gemini CLI and Qwen Code share:
 * an approval mode (`yolo` auto-approves every tool, `default` asks, and headless runs cannot ask,
 * so tools needing approval are withheld from the model) plus per-tool allow/deny lists.
 */
export interface ToolLists {
  /** `yolo` when the policy's default is `allow`, else `default`. */
  approvalMode: 'yolo' | 'default';
  /** Tools to run without asking (exact native names). */
  allow: string[];
  /** Tools to withhold from the model (exact native names). */
  deny: string[];
}

const exactName = (tool: string) => /^[A-Za-z0-9_.:-]+$/.test(tool);

/**
 * Exact-name rules only (the lists both CLIs accept): first matching rule wins, so a name keeps
 * the decision of its first rule. `ask` counts as deny (a headless run cannot ask); a rule with
 * `when` that denies or asks withholds the whole tool (cautious), one that allows is dropped.
 */
export function toolLists(policy: PermissionPolicy | undefined): ToolLists {
  const approvalMode = (policy?.default ?? 'ask') === 'allow' ? 'yolo' : 'default';
  const decided = new Map<string, 'allow' | 'deny'>();
  for (const rule of policy?.rules ?? []) {
    if (!exactName(rule.tool) || decided.has(rule.tool)) continue;
    if (rule.decision === 'allow' && rule.when) continue;
    decided.set(rule.tool, rule.decision === 'allow' ? 'allow' : 'deny');
  }
  const allow = [...decided].filter(([, d]) => d === 'allow').map(([t]) => t);
  const deny = [...decided].filter(([, d]) => d === 'deny').map(([t]) => t);
  return { approvalMode, allow, deny };
}

const tomlString = (value: string) => JSON.stringify(value);

/** `git *` on a shell command → the prefix `git ` Gemini's `commandPrefix` takes; undefined when not a plain prefix glob. */
function commandPrefixOf(rule: PermissionRule): string | undefined {
  const keys = Object.keys(rule.when ?? {});
  if (keys.length !== 1 || keys[0] !== 'command') return undefined;
  const patterns = rule.when?.command;
  const globs = typeof patterns === 'string' ? [patterns] : (patterns ?? []);
  if (globs.length !== 1) return undefined;
  const glob = globs[0] ?? '';
  const body = glob.endsWith('*') ? glob.slice(0, -1) : glob;
  if (body.trim() === '' || /[*?[\]{}!]/.test(body)) return undefined;
  return body.trimEnd();
}

/**
 * A Gemini CLI policy file (`--policy <file>`, TOML `[[rule]]`s, user tier, so it outranks the
 * built-in yolo rule). Rules keep their order through descending priorities; `ask` is `ask_user`,
 * which a headless run treats as not allowed. A `when` on `run_shell_command`'s `command` with a
 * plain prefix glob (`git *`) becomes `commandPrefix`; any other `when` makes a deny/ask rule cover
 * the whole tool (cautious) and drops an allow rule. A `deny` default adds a lowest `*` deny rule.
 */
export function geminiPolicyToml(policy: PermissionPolicy | undefined): string {
  const lines: string[] = ['# Written by agent-mux for one run; removed when the run ends.'];
  const rules = policy?.rules ?? [];
  rules.forEach((rule, index) => {
    const decision = rule.decision === 'ask' ? 'ask_user' : rule.decision;
    const prefix = rule.when ? commandPrefixOf(rule) : undefined;
    if (rule.when && prefix === undefined && rule.decision === 'allow') return;
    lines.push('', '[[rule]]', `toolName = ${tomlString(rule.tool)}`, `decision = ${tomlString(decision)}`);
    lines.push(`priority = ${Math.max(10, 900 - index)}`);
    if (prefix !== undefined) lines.push(`commandPrefix = ${tomlString(prefix)}`);
    if (rule.decision === 'deny') lines.push(`denyMessage = ${tomlString(rule.reason ?? 'Denied by the run policy.')}`);
  });
  if ((policy?.default ?? 'ask') === 'deny') {
    lines.push('', '[[rule]]', 'toolName = "*"', 'decision = "deny"', 'priority = 5');
    lines.push('denyMessage = "Denied by the run policy."');
  }
  return `${lines.join('\n')}\n`;
}
