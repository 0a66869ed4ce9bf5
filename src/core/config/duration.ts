import { z } from 'zod';

const units: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const durationPattern = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

/** A Go-style duration string: `90s`, `5m`, `1h30m`, `250ms`. */
export const durationSchema = z
  .string()
  .regex(durationPattern, { error: 'expected a duration such as "30s", "5m" or "1h30m"' });

/** Milliseconds in a duration string (`"1h30m"` → 5400000). Throws a RangeError on a malformed one. */
export function parseDuration(text: string): number {
  if (!durationPattern.test(text)) throw new RangeError(`not a duration: "${text}"`);
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(part)) ms += Number(amount) * (units[unit as string] ?? 0);
  return ms;
}
