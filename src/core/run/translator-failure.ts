import type { EventDraft } from '../events/index.ts';

/**
 * What a translator returns when translating a record threw: one recoverable `internal` error,
 * so that the run goes on (a translator never throws).
 */
export function translatorFailure(translator: string, error: unknown): EventDraft[] {
  const message = error instanceof Error ? error.message : String(error);
  return [{ type: 'error', code: 'internal', message: `${translator} translator: ${message}`, recoverable: true }];
}
