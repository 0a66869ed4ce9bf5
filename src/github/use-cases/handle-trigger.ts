import { type ActedTrigger, type ActOptions, actOnTrigger } from './act-on-trigger.ts';
import { decideTrigger, type GitHubDeps, type TriggerOverrides } from './decide-trigger.ts';

/**
 * One GitHub event, decided (`decideTrigger`, reads only) and then acted on (`actOnTrigger`, the
 * writes the decision asks for). What every front end calls.
 */
export async function handleTrigger(
  deps: GitHubDeps,
  input: { eventName: string; payload: unknown; deliveryId?: string },
  overrides: TriggerOverrides = {},
  options: Pick<ActOptions, 'acknowledgeInBackground'> = {},
): Promise<ActedTrigger> {
  const decision = await decideTrigger(deps, input, overrides);
  return actOnTrigger(deps.api, decision, { ...options, ...(deps.log ? { log: deps.log } : {}) });
}
