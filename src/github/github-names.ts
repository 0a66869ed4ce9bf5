/**
 * Every name agent-mux writes on GitHub and reads back there: its check runs' names, the hidden
 * markers that open its comments (a comment holding `MARKER_PREFIX` never triggers a run, and
 * later runs find their tracking comments, turn records and approvals by them), and the titles of
 * the pull requests and commits it makes. Renaming one of them here renames it everywhere.
 */

/** The check run of a pull request's review (`@agent review`): branch protection can require it. */
export const REVIEW_CHECK_RUN_NAME = 'agent-mux / review';

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

/** How every hidden marker of agent-mux's comments begins. */
export const MARKER_PREFIX = '<!-- agent-mux:';

/** The hidden first lines of agent-mux's comments, and the patterns that read them back. */
export const markers = {
  /** A run's tracking comment (its first line). */
  run: (runId: string) => `${MARKER_PREFIX}run:${runId} -->`,
  /** The run id of a tracking comment, from the marker at the very start of its body. */
  runPattern: /^<!-- agent-mux:run:([A-Za-z0-9._:-]{1,128}) -->/,
  /** The line of a tracking comment that holds its turn record (base64url JSON). */
  turn: (encoded: string) => `${MARKER_PREFIX}turn:${encoded} -->`,
  turnPattern: /^<!-- agent-mux:turn:([A-Za-z0-9_-]{1,20000}) -->$/m,
  /** An approval request. */
  approval: (approvalId: string) => `${MARKER_PREFIX}approval:${approvalId} -->`,
  /** A reply to an answer that did not count. */
  approvalReply: `${MARKER_PREFIX}approval-reply -->`,
  /** The answer posted in the review thread a request came from. */
  threadReply: (runId: string) => `${MARKER_PREFIX}thread-reply:${runId.replace(/[^A-Za-z0-9_-]/g, '')} -->`,
  /** The comment that says the repository config is invalid. */
  configError: `${MARKER_PREFIX}config-error -->`,
  /** A mention agent-mux refused (not trusted, a fork, …). */
  refusal: `${MARKER_PREFIX}refusal -->`,
  /**
   * A review finding, first in its inline comment or on its line of the review's body: its id and
   * what it was anchored to (base64url JSON, `encodeFinding`), which later reviews read back.
   */
  finding: (id: string, encoded: string) =>
    `${MARKER_PREFIX}finding:${id.replace(/[^A-Za-z0-9_-]/g, '')}:${encoded.replace(/[^A-Za-z0-9_-]/g, '')} -->`,
  findingPattern: /^<!-- agent-mux:finding:([A-Za-z0-9_-]{1,64}):([A-Za-z0-9_-]{0,8000}) -->/,
  /** The app's one reply to a queued run it cannot start without a fence. */
  unfenced: (runId: string) => `${MARKER_PREFIX}unfenced:${runId} -->`,
} as const;

/** A run's commit and pull-request title: `agent-mux: ` and the request's title (or first line), at most 60 characters. */
export function runTitle(titleOrInstruction: string): string {
  const title = titleOrInstruction.split('\n')[0]?.trim() ?? '';
  const short = title.length > 60 ? `${title.slice(0, 57)}…` : title;
  return `agent-mux: ${short || 'changes'}`;
}

/** The title of the pull request that carries a fix for a pull request from a fork. */
export function forkPullRequestTitle(number: number): string {
  return `Fix for #${number} (from agent-mux)`;
}
