import { z } from 'zod';
import { CALLER_TOOLS_EXTENSION, callerToolsOfferSchema } from '../core/transport/caller-tools-extension.ts';

/** The body of `POST /v1/sessions`. Unknown fields are kept (and ignored). */
export const createSessionSchema = z.looseObject({
  runId: z.string().min(1),
  taskId: z.string().min(1),
  leaseToken: z.string(),
  fencingToken: z.number().int(),
  mcpUrl: z.string().optional(),
  agent: z.looseObject({}).optional(),
  task: z.looseObject({
    prompt: z.string(),
    cwd: z.string().optional(),
    model: z.string().optional(),
  }),
  context: z.looseObject({ model: z.string().optional() }).optional(),
  /** Negotiated extensions of ca-http-v1 (docs/remote.md); unknown ones are ignored. */
  extensions: z.looseObject({ [CALLER_TOOLS_EXTENSION]: callerToolsOfferSchema.optional() }).optional(),
});
export type CreateSessionBody = z.infer<typeof createSessionSchema>;

/** The body of `POST /v1/sessions/{id}/input`: one of the Process protocol's adapter → agent records. */
export const inputRecordSchema = z.union([
  z.union([
    z.object({ type: z.literal('tool_result'), id: z.string(), ok: z.literal(true), value: z.unknown().optional() }),
    z.object({ type: z.literal('tool_result'), id: z.string(), ok: z.literal(false), error: z.string() }),
  ]),
  z.object({
    type: z.literal('budget_update'),
    remaining: z.object({ tokens: z.number().optional(), usd: z.number().optional() }),
  }),
  z.object({ type: z.literal('shutdown'), reason: z.string() }),
]);
