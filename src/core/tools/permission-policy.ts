import picomatch from 'picomatch';
import { z } from 'zod';

export const permissionDecisionSchema = z.enum(['allow', 'ask', 'deny']);
export type PermissionDecision = z.infer<typeof permissionDecisionSchema>;

const patternsSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/**
 * One rule. `tool` is a glob on the tool name (`write_file`, `mcp__github__*`, `*`).
 * `when` narrows it by arguments: every key must match one of its globs. A key is an argument
 * name or a dotted path into the input (`options.path`).
 *
 * Globs err toward caution. In `allow` rules `*` stops at `/` (`src/**` crosses directories,
 * `src/*` does not) and an array argument matches only when every element does. In `ask` and
 * `deny` rules `*` also matches `/` (`rm *` covers `rm -rf /`), one matching element is enough, and
 * a multi-line value matches when any of its lines does. Allow globs never match a `..` segment.
 * Globs on shell commands are best effort (`echo && rm -rf /` is not `rm *`): prefer `ask` for shells.
 */
export const permissionRuleSchema = z.object({
  tool: z.string().min(1),
  decision: permissionDecisionSchema,
  when: z.record(z.string().min(1), patternsSchema).optional(),
  /** Shown to the approver (ask) or returned to the agent (deny). */
  reason: z.string().optional(),
});
export type PermissionRule = z.infer<typeof permissionRuleSchema>;

/** The run's permission policy: the first matching rule decides, else `default`. */
export const permissionPolicySchema = z.object({
  default: permissionDecisionSchema.default('ask'),
  rules: z.array(permissionRuleSchema).default([]),
});
export type PermissionPolicy = z.input<typeof permissionPolicySchema>;

export interface PolicyVerdict {
  decision: PermissionDecision;
  /** The rule that decided; absent when the default did. */
  rule?: PermissionRule;
  /** Index of that rule in `policy.rules`. */
  ruleIndex?: number;
}

/** Decides whether a tool call may run. Pure; expects input already validated by the tool's schema. */
export function decide(policy: PermissionPolicy, toolName: string, input: unknown): PolicyVerdict {
  const rules = policy.rules ?? [];
  for (const [ruleIndex, rule] of rules.entries()) {
    if (ruleMatches(rule, toolName, input)) return { decision: rule.decision, rule, ruleIndex };
  }
  return { decision: policy.default ?? 'ask' };
}

/** True when the rule applies to this call. */
export function ruleMatches(rule: PermissionRule, toolName: string, input: unknown): boolean {
  if (!matcher(rule.tool, false)(toolName)) return false;
  if (rule.when === undefined) return true;
  const cautiousAllow = rule.decision === 'allow';
  for (const [key, patterns] of Object.entries(rule.when)) {
    const raw = argumentAt(input, key);
    const value = isPathKey(key) ? pathForms(raw, cautiousAllow) : raw;
    const globs = typeof patterns === 'string' ? [patterns] : patterns;
    const matchesOne = (text: string) => globs.some((glob) => matcher(glob, !cautiousAllow)(text));
    if (!valueMatches(value, matchesOne, cautiousAllow)) return false;
  }
  return true;
}

/** Argument names that hold a file path (`path`, `file_path`, `options.path`, …). */
function isPathKey(key: string): boolean {
  const name = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return /^(path|paths|file|files|file_?path|file_?name|notebook_?path|dir|directory)$/.test(name);
}

/** A path value with every element canonicalised (`pathVariants`); arrays keep their shape. */
function pathForms(value: unknown, cautiousAllow: boolean): unknown {
  if (Array.isArray(value)) return value.map((element) => pathForms(element, cautiousAllow));
  if (typeof value !== 'string') return value;
  const variants = pathVariants(value);
  // Allow matches only the one canonical form; deny and ask match any spelling of it.
  return cautiousAllow ? new PathSpellings([variants[0]!]) : new PathSpellings(variants);
}

/** The spellings a path value is matched as; a rule matches when one does. */
class PathSpellings {
  readonly texts: readonly string[];
  constructor(texts: readonly string[]) {
    this.texts = texts;
  }
}

/**
 * Spellings of the one file a path names, canonical first: Unicode NFC, `\` read as `/`, `.` and
 * empty segments dropped, `a/..` collapsed, trailing `/` dropped. An absolute path also yields each
 * of its tails (`/ws/secrets/key` → `secrets/key`, `key`), since the workspace it is under is not
 * known here: a deny rule on `secrets/**` then still catches it, while allow rules, which see only
 * the canonical form, never match an absolute path.
 */
export function pathVariants(value: string): string[] {
  const text = value.normalize('NFC').replace(/\\/g, '/');
  const absolute = text.startsWith('/');
  const segments: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else if (segment === '..' && absolute) continue;
    else segments.push(segment);
  }
  const canonical = (absolute ? '/' : '') + segments.join('/') || '.';
  const variants = [canonical, value, value.normalize('NFD')];
  if (absolute) for (let index = 1; index < segments.length; index++) variants.push(segments.slice(index).join('/'));
  return [...new Set(variants)];
}

function valueMatches(value: unknown, matchesOne: (text: string) => boolean, every: boolean): boolean {
  if (value instanceof PathSpellings) return value.texts.some(matchesOne);
  if (Array.isArray(value)) {
    if (value.length === 0) return false;
    const one = (element: unknown) =>
      element instanceof PathSpellings
        ? element.texts.some(matchesOne)
        : scalarText(element) !== undefined && matchesOne(scalarText(element)!);
    return every ? value.every(one) : value.some(one);
  }
  const text = scalarText(value);
  return text !== undefined && matchesOne(text);
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function argumentAt(input: unknown, key: string): unknown {
  if (!isRecord(input)) return undefined;
  if (Object.hasOwn(input, key)) return input[key];
  let current: unknown = input;
  for (const part of key.split('.')) {
    if (!isRecord(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const matchers = new Map<string, (text: string) => boolean>();

/**
 * Cautious (`allow`): picomatch defaults, and a `..` segment never matches.
 * Broad (`ask`, `deny`): `*` also matches `/` (picomatch's `bash` mode), and a multi-line value
 * matches when the whole value or any one of its lines does. Compiled matchers are cached.
 */
function matcher(glob: string, broad: boolean): (text: string) => boolean {
  const key = `${broad ? 'b' : 'c'}:${glob}`;
  let match = matchers.get(key);
  if (match === undefined) {
    const compiled = picomatch(glob, { dot: true, bash: broad });
    match = broad
      ? (text) => compiled(text) || (/[\r\n]/.test(text) && text.split(/\r?\n|\r/).some((line) => compiled(line)))
      : (text) => !hasParentSegment(text) && compiled(text);
    matchers.set(key, match);
  }
  return match;
}

function hasParentSegment(text: string): boolean {
  return text.split(/[\\/]/).includes('..');
}
