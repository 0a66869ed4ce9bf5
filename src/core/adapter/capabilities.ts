import { z } from 'zod';

export const platformSchema = z.enum(['darwin', 'linux', 'win32']);
export type Platform = z.infer<typeof platformSchema>;

/** What an adapter can do, declared once and shown by `agent-mux adapters`. */
export const capabilitiesSchema = z.object({
  /** A session can be continued by a later run. */
  resume: z.boolean(),
  /** A session can be forked into a new one. */
  fork: z.boolean(),
  /** Extended thinking: always, never, or depending on the model. */
  thinking: z.enum(['yes', 'no', 'model-dependent']),
  /** The agent can use tools from an MCP server (the tool host's). */
  mcp: z.boolean(),
  /** How tool permissions reach a human: not at all, through the tool host relay, or the CLI's own prompt hook. */
  approvals: z.enum(['none', 'relay', 'native']),
  /** Whether the program needs a pseudo-terminal. */
  pty: z.enum(['never', 'optional', 'required']),
  platforms: z.array(platformSchema),
  sessionPersistence: z.enum(['none', 'memory', 'file', 'sqlite', 'remote']),
  execModel: z.enum(['interactive', 'run-to-completion', 'request-response']),
  /** The agent names its own session ids (reused for resume). */
  nativeSessionIds: z.boolean(),
  /** The agent says when a turn is over (no need to wait for EOF). */
  turnCompletion: z.boolean(),
  /** What streams: text, tool calls and thinking (`full`), text only, or nothing until the end. */
  streaming: z.enum(['full', 'text', 'none']),
  /**
   * The agent takes a user's message while it runs (`RunHandle.steer`, `SpawnPlan.input`): a comment
   * made during a run reaches it. Absent: such messages wait for the next turn.
   */
  steering: z.boolean().optional(),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;
