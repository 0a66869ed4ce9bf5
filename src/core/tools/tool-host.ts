/** The result of one tool call, as the agent receives it. */
export type ToolResult = { ok: true; value: unknown } | { ok: false; error: string };

export interface ToolDescription {
  name: string;
  description: string;
  /** JSON Schema of the input. */
  inputSchema: Record<string, unknown>;
}

/** What the agent declared about its own run through `mark_complete` / `mark_failed`. */
export type ToolOutcome =
  | { status: 'completed'; output?: unknown }
  | { status: 'failed'; reason: string; details?: string };

export interface ToolCallOptions {
  toolCallId?: string;
  signal?: AbortSignal;
}

/** The tools an agent may call in one run, under the run's permission policy. */
export interface ToolHost {
  list(): ToolDescription[];
  /** Runs a tool. Never throws: unknown tools, invalid input, denials and failures are `ok: false`. */
  call(name: string, input: unknown, options?: ToolCallOptions): Promise<ToolResult>;
  /** The outcome the agent recorded with `mark_complete` / `mark_failed`, if the host offers those tools. */
  readonly outcome?: ToolOutcome;
}
