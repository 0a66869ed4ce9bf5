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
