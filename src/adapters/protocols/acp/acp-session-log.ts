/**
 * What an agent's own session log tells that its ACP messages leave out. codex-acp, as a v1 client
 * sees it, drops the model's justification from its permission requests and reports no tool call
 * for a command its sandbox refused; Codex's rollout has both.
 */
export interface AcpSessionLog {
  /** Why the agent asks for `toolCallId`, in its own words, when its log says. */
  reason(
    env: Readonly<Record<string, string | undefined>>,
    sessionId: string,
    toolCallId: string,
  ): Promise<string | undefined>;
  /** Its tool calls that failed or were refused and that ACP never reported (ids not in `reported`). */
  unreported(
    env: Readonly<Record<string, string | undefined>>,
    sessionId: string,
    reported: ReadonlySet<string>,
  ): Promise<UnreportedCall[]>;
}

/** A failed call found in the agent's log only. */
export interface UnreportedCall {
  toolCallId: string;
  /** What it ran (a command line), shown as the step's title. */
  title: string;
  /** The ACP tool kind it would have been reported with (`execute` for a command). */
  kind: string;
  /** The output the model saw, with the refusal in it. */
  output: string;
  exitCode?: number;
}
