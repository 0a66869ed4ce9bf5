/**
 * The ids of agent-mux's requests to `codex app-server` (JSON-RPC ids may be strings): the
 * translator knows the thread's id from the `thread` response, and a refused `initialize`,
 * `thread` or `turn` request fails the run. Steers are `agent-mux-steer-<n>`, extra turns
 * `agent-mux-turn-<n>`.
 */
export const CODEX_REQUEST = {
  initialize: 'agent-mux-initialize',
  thread: 'agent-mux-thread',
  turn: 'agent-mux-turn',
} as const;

/** Whether `id` is one of the requests that make the run (a refusal fails it), not a steer. */
export function isRunRequest(id: unknown): boolean {
  return (
    id === CODEX_REQUEST.initialize ||
    id === CODEX_REQUEST.thread ||
    (typeof id === 'string' && id.startsWith(CODEX_REQUEST.turn))
  );
}
