import { adapterConfigTypes } from '../core/config/adapter-config-schema.ts';
import { closestName } from '../core/errors/did-you-mean.ts';
import { AppSettingsError } from './app-settings-error.ts';

/** The prefix of an `AGENT_MUX_ADAPTER_LIMITS` key that names a repository's agent instead of an adapter. */
export const AGENT_LIMIT_PREFIX = 'agent:';

/**
 * Checks the keys of `AGENT_MUX_ADAPTER_LIMITS` (runs are counted by `limitKey`): a built-in adapter's
 * id (`codex=3`), or `agent:<name>` for a repository's agent of a configurable type
 * (`agent:gpu-box=1` for `agents.gpu-box` with `adapter: http`). Any other key would limit nothing,
 * silently (`claude-code=2`, `http=2`): it is an error naming the variable, with a did-you-mean.
 *
 * @throws AppSettingsError naming every such key.
 */
export function checkAdapterLimits(perAdapter: Readonly<Record<string, number>>, registryIds: readonly string[]): void {
  const builtin = [...new Set(registryIds)].sort();
  const problems: string[] = [];
  for (const key of Object.keys(perAdapter)) {
    if (builtin.includes(key)) continue;
    if (key.startsWith(AGENT_LIMIT_PREFIX) && key.length > AGENT_LIMIT_PREFIX.length) continue;
    const suggestion = (adapterConfigTypes as readonly string[]).includes(key)
      ? `${AGENT_LIMIT_PREFIX}<name> for an agent with adapter: ${key}`
      : (closestName(key, builtin) ?? builtin.find((id) => key.startsWith(`${id}-`) || key.startsWith(id)));
    problems.push(
      `AGENT_MUX_ADAPTER_LIMITS: "${key}" is no built-in adapter${suggestion ? ` (did you mean ${suggestion}?)` : ''}; keys are built-in adapter ids (${builtin.join(', ')}) or ${AGENT_LIMIT_PREFIX}<name> for a repository's agent of a configured type (http, chat-sse, process, …)`,
    );
  }
  if (problems.length > 0) throw new AppSettingsError(problems);
}
