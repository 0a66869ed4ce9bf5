/** 3_600_000 → `1 h`, 900_000 → `15 min`, 90_500 → `91 s`: a timeout as the approval comment words it. */
export function humanDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}
