/** The check run of a repository config that could not be read (`reportConfigError`). */
export const CONFIG_CHECK_RUN_NAME = 'agent-mux / config';

/**
 * The name of a run's check run as GitHub lists it: `agent-mux / <agent>`, and ` (turn N)` from a
 * conversation's second turn on. The check run, the Action's job summary and the tests read it here.
 */
export function checkRunName(agentName: string, turn = 1): string {
  return `agent-mux / ${agentName}${turnSuffix(turn)}`;
}

/** ` (turn N)` from the second turn on, else nothing: what a run's titles add to the agent's name. */
export function turnSuffix(turn: number): string {
  return turn > 1 ? ` (turn ${turn})` : '';
}
