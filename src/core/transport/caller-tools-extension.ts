import { z } from 'zod';

/**
 * ca-http-v1's `caller-tools` extension (docs/remote.md), negotiated per session: the caller offers
 * its tools in `POST /v1/sessions` (`extensions["caller-tools"]`), and a remote that runs the agent
 * with those tools only (relayed as `tool_call` / `tool_result`, on the caller's checkout, under
 * the caller's policy) says so in its `201` answer. A remote that does not know the extension
 * ignores the field and answers without it: the session then runs as plain ca-http-v1.
 */
export const CALLER_TOOLS_EXTENSION = 'caller-tools';
export const CALLER_TOOLS_VERSION = 1;

const toolDescriptionSchema = z.object({
  name: z.string().min(1).max(64),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
});

/** What the caller sends. */
export const callerToolsOfferSchema = z.looseObject({
  version: z.number().int().positive(),
  tools: z.array(toolDescriptionSchema).max(256),
  /**
   * The run's workspace is the caller's: an agent that cannot work with the caller's tools only
   * must not run (answered `422 caller_tools_unsupported`), rather than work on a tree of its own.
   */
  required: z.boolean().optional(),
});
export type CallerToolsOffer = z.infer<typeof callerToolsOfferSchema>;

/** What a remote that honours the offer answers (`extensions["caller-tools"]` of the `201`). */
export const callerToolsAcceptSchema = z.looseObject({ version: z.number().int().positive() });

/** The error code of a remote that cannot run its agent with the caller's tools only. */
export const CALLER_TOOLS_UNSUPPORTED = 'caller_tools_unsupported';
