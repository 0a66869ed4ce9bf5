import { summarize } from './summarize.ts';

/** What a sandbox's refusal looks like in a command's output (Linux errno texts, Codex's own words). */
const REFUSAL = /read-only file system|operation not permitted|permission denied|sandbox denied|landlock|seccomp/i;

/** The refusal a failed tool call's output words (`Read-only file system`), if it reads like one. */
export function refusalIn(output: unknown): string | undefined {
  const text = typeof output === 'string' ? output.slice(0, 100_000) : summarize(output, 4000);
  return REFUSAL.exec(text)?.[0];
}
