import { z } from 'zod';

/** A string that is not empty, else undefined (a field of the wrong type is read as absent). */
const filled = z.string().min(1).optional().catch(undefined);
const nonNegative = z.number().nonnegative().optional().catch(undefined);
const anything = z.unknown().optional();

const agentMeta = z
  .object({ sessionId: filled, provider: filled, model: filled, usage: anything, costUsd: anything })
  .loose()
  .optional()
  .catch(undefined);

const meta = z
  .object({ durationMs: nonNegative, stopReason: filled, toolSummary: anything, error: anything, agentMeta })
  .loose()
  .optional()
  .catch(undefined);

/**
 * openclaw's one JSON envelope (`agent exec --json`, `agent --local --json`, CLI failures), read
 * leniently at the edge: a field of the wrong type is read as absent. Built once.
 */
export const openclawEnvelopeSchema = z
  .object({
    ok: anything,
    status: anything,
    final: filled,
    payloads: anything,
    usage: anything,
    costUsd: anything,
    toolSummary: anything,
    model: filled,
    provider: filled,
    sessionId: filled,
    error: anything,
    meta,
  })
  .loose();

/** An envelope as {@link openclawEnvelopeSchema} reads it. */
export type OpenclawEnvelope = z.infer<typeof openclawEnvelopeSchema>;

/** Keys that make a JSON object openclaw's envelope (as does a `meta` object). */
export const ENVELOPE_KEYS = ['ok', 'status', 'payloads', 'final'] as const;
