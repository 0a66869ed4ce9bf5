/** `unknown agent "claud" (did you mean "claude"?)`, or the list of known agents when none is near. */
export function unknownAgentMessage(name: string, known: readonly string[]): string {
  const base = `unknown agent ${JSON.stringify(name)}`;
  const suggestion = closestName(name, known);
  if (suggestion) return `${base} (did you mean ${JSON.stringify(suggestion)}?)`;
  return known.length === 0 ? base : `${base}; known agents: ${[...known].sort().join(', ')}`;
}

/** The known name nearest to `name`: the same ignoring case, `_` and `-`, or within a small edit distance. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const normal = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  const exact = known.find((k) => normal(k) === normal(name));
  if (exact) return exact;
  let best: string | undefined;
  let bestDistance = Math.min(3, Math.ceil(name.length / 3) + 1);
  for (const candidate of known) {
    const d = editDistance(normal(name), normal(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
