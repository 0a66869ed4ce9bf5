import { closestName } from '../core/errors/did-you-mean.ts';

/** `unknown agent "claud" (did you mean "claude"?)`, or the list of known agents when none is near. */
export function unknownAgentMessage(name: string, known: readonly string[]): string {
  const base = `unknown agent ${JSON.stringify(name)}`;
  const suggestion = closestName(name, known);
  if (suggestion) return `${base} (did you mean ${JSON.stringify(suggestion)}?)`;
  return known.length === 0 ? base : `${base}; known agents: ${[...known].sort().join(', ')}`;
}
