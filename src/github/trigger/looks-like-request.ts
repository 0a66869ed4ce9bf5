import type { TriggerEvent } from './trigger-event.ts';

/**
 * Whether an event probably asks for a run, before the repository's config says for sure: a
 * dispatch, or text that holds the trigger phrase (any case). Used only to start what a run waits
 * for (the actor's permission, the fence) while the config is read; never to decide anything.
 */
export function looksLikeRequest(event: Pick<TriggerEvent, 'source' | 'text'>, phrase: string): boolean {
  if (event.source.kind === 'dispatch' || event.source.kind === 'pull_request') return true;
  return phrase !== '' && event.text.toLowerCase().includes(phrase.toLowerCase());
}
