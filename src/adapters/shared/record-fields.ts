import type { TranslatorState } from '../../core/adapter/index.ts';
import type { EventDraft } from '../../core/events/index.ts';

/** Readers for the loosely typed JSON records agents print, and the drafts translators answer odd ones with. */

export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
/** A token count: a finite non-negative number, floored; anything else is 0. */
export const count = (value: unknown): number => {
  const n = num(value);
  return n !== undefined && n >= 0 ? Math.floor(n) : 0;
};
export const whole = (n: number): number => (n > 0 ? Math.floor(n) : 0);
export const nonNegative = (n: number | undefined): number | undefined => (n !== undefined && n >= 0 ? n : undefined);
/** A string that is not empty; anything else is undefined. */
export const filled = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
/** A token count when one is given: a finite non-negative number, floored; anything else is undefined. */
export const countOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;

/** A record the translator does not know: a `debug` event when debugging, else nothing. */
export function unknownRecord(state: TranslatorState, message: string, data?: unknown): EventDraft[] {
  return state.debug ? [{ type: 'debug', message, data }] : [];
}

export function malformed(message: string): EventDraft[] {
  return [{ type: 'error', code: 'malformed_record', message, recoverable: true }];
}
