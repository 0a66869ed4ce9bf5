import type { LaunchContext, SpawnPlan } from '../../../core/adapter/index.ts';
import type { PermissionPolicy } from '../../../core/tools/permission-policy.ts';

/**
 * `cursor-agent -p --output-format stream-json --stream-partial-output --trust [--force] … <prompt>`
 * (flags from cursor.com/docs/cli/reference/parameters; not run here). The prompt is the positional
 * argument: print mode reading the prompt from stdin is not documented.
 */
export function cursorPlan(command: string, ctx: LaunchContext): SpawnPlan {
  const { request } = ctx;
  const args = ['-p', '--output-format', 'stream-json', '--stream-partial-output', '--trust'];
  if (allowsAll(ctx.policy)) args.push('--force');
  if (request.model) args.push('--model', request.model);
  if (request.resumeSessionId) args.push('--resume', request.resumeSessionId);
  args.push('--workspace', request.cwd);
  const prompt = request.systemPrompt ? `${request.systemPrompt}\n\n${request.prompt}` : request.prompt;
  args.push(prompt);
  return { command, args, cwd: request.cwd, protocol: 'json-lines' };
}

/**
 * Cursor's print mode runs reads always, and shell commands and file writes only with `--force`
 * ("force allow commands unless explicitly denied"); finer rules live in `permissions` of
 * `~/.cursor/cli-config.json` or `<project>/.cursor/cli.json`, which this adapter does not write
 * (it would mean editing the user's config or the workspace). So: `--force` when the policy allows
 * everything (default `allow` and no deny/ask rule); otherwise no `--force`, and Cursor rejects
 * shell commands and writes (`rejected` tool results), the safe side of any deny or ask.
 */
export function allowsAll(policy: PermissionPolicy | undefined): boolean {
  if ((policy?.default ?? 'ask') !== 'allow') return false;
  return (policy?.rules ?? []).every((rule) => rule.decision === 'allow');
}
