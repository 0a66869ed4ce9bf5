import type { RunEndReason } from '../../core/events/run-events.ts';

/**
 * The one home of a run's states and of what each front end shows for them: the status while the
 * events come, the conclusion once the run is done, and their words, emoji and stored states. The
 * check run, the tracking comment, the job summary, the Action's outputs and the app's store all
 * read these tables; none keeps its own.
 */

/** Where a run stands, as its events tell it (`RunProgress.status`). */
export type RunStatus = 'queued' | 'running' | 'awaiting_approval' | 'completed' | 'failed' | 'cancelled' | 'timed_out';

/** How a run concluded once everything (git, pull request) is done: the check run's conclusion, the Action's output. */
export type RunConclusion = 'success' | 'failure' | 'cancelled' | 'timed_out' | 'neutral' | 'action_required';

/** The Action's `conclusion` output: a run's conclusion, or `skipped` when the event asked for no run. */
export type ActionConclusion = RunConclusion | 'skipped';

/** The app's stored state of a concluded run (one of its `RunState`s). */
export type ConcludedState = 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

/** What an end reason means: the status the events leave and the conclusion the run gets. */
const endReasons: Record<RunEndReason, { status: RunStatus; conclusion: RunConclusion }> = {
  completed: { status: 'completed', conclusion: 'success' },
  failed: { status: 'failed', conclusion: 'failure' },
  crashed: { status: 'failed', conclusion: 'failure' },
  budget_exceeded: { status: 'failed', conclusion: 'failure' },
  aborted: { status: 'cancelled', conclusion: 'cancelled' },
  timeout: { status: 'timed_out', conclusion: 'timed_out' },
  inactivity: { status: 'timed_out', conclusion: 'timed_out' },
};

/** What an end reason reads as in a sentence (`budget exceeded`, `timed out`), not as its code. */
const endReasonWords: Record<RunEndReason, string> = {
  completed: 'completed',
  failed: 'failed',
  crashed: 'crashed',
  budget_exceeded: 'budget exceeded',
  aborted: 'aborted',
  timeout: 'timed out',
  inactivity: 'inactivity',
};

/** What a conclusion reads as and is stored as. */
const conclusions: Record<RunConclusion, { word: string; emoji: string; state: ConcludedState }> = {
  success: { word: 'succeeded', emoji: '✅', state: 'succeeded' },
  failure: { word: 'failed', emoji: '❌', state: 'failed' },
  cancelled: { word: 'cancelled', emoji: '⏹️', state: 'cancelled' },
  timed_out: { word: 'timed out', emoji: '⏱️', state: 'timed_out' },
  // The agent ended as if done, but changed nothing while its attempts to change were refused or failed.
  neutral: { word: 'changed nothing', emoji: '⚠️', state: 'failed' },
  // A review with a blocking finding open, where the repository's config asks for action_required.
  action_required: { word: 'needs action', emoji: '🛑', state: 'failed' },
};

/** What a status reads as: a word (check run) and a headline after the agent's name with its emoji (tracking comment). */
const statuses: Record<RunStatus, { word: string; emoji: string; headline: string }> = {
  queued: { word: 'queued', emoji: '⏳', headline: 'is working on this' },
  running: { word: 'running', emoji: '⏳', headline: 'is working on this' },
  awaiting_approval: { word: 'waiting for approval', emoji: '✋', headline: 'is waiting for approval' },
  completed: { word: 'completed', emoji: '⏳', headline: 'is working on this' },
  failed: { word: 'failed', emoji: '⏳', headline: 'is working on this' },
  cancelled: { word: 'cancelled', emoji: '⏳', headline: 'is working on this' },
  timed_out: { word: 'timed out', emoji: '⏳', headline: 'is working on this' },
};

/** What the status of a run is, from what its events told: how it ended, approvals it waits for, whether it began. */
export function runStatus(run: { endReason: RunEndReason | undefined; pending: number; started: boolean }): RunStatus {
  if (run.endReason !== undefined) return endReasons[run.endReason].status;
  if (run.pending > 0) return 'awaiting_approval';
  return run.started ? 'running' : 'queued';
}

/** The conclusion of a run that ended for `reason` (before anything is published). */
export function conclusionOf(reason: RunEndReason): RunConclusion {
  return endReasons[reason].conclusion;
}

/**
 * Why a run ended, said once, as the check run, the tracking comment, the job summary and the
 * app's store show it: `budget exceeded`, `timed out after 600000 ms`, `crashed: claude exited with
 * code 1`; `the run ended: aborted` when there is no message.
 */
export function endReasonText(end: RunEndLike): string {
  return end.message?.trim() ? endReasonPhrase(end) : `the run ended: ${endReasonPhrase(end)}`;
}

/**
 * The reason in words with its message (after `separator`), unless the message already begins with
 * what the reason says (the core's `budget exceeded`, `timed out after …`): then the message alone.
 */
export function endReasonPhrase(end: RunEndLike, separator = ': '): string {
  const words = endReasonWords[end.reason];
  const message = end.message?.trim();
  if (!message) return words;
  const lower = message.toLowerCase();
  if (lower === words || lower.startsWith(`${words} `) || lower.startsWith(`${words}:`)) return message;
  return `${words}${separator}${message}`;
}

/** What a run's end gives to `endReasonText`: its `run_end` event, or the `RunEnd`. */
interface RunEndLike {
  reason: RunEndReason;
  message?: string | undefined;
}

/** `succeeded`, `failed`, `cancelled`, `timed out`. */
export function conclusionWord(conclusion: RunConclusion): string {
  return conclusions[conclusion].word;
}

/** ✅, ❌, ⏹️, ⏱️: the emoji of a conclusion's headline (tracking comment, job summary). */
export function conclusionEmoji(conclusion: RunConclusion): string {
  return conclusions[conclusion].emoji;
}

/** The app's stored state of a run that concluded so. */
export function concludedState(conclusion: RunConclusion): ConcludedState {
  return conclusions[conclusion].state;
}

/** The status as a word: `running`, `waiting for approval`, `timed out`, … */
export function statusWord(status: RunStatus): string {
  return statuses[status].word;
}

/**
 * The headline of a run after its agent's name (already escaped by the caller): `✅ claude succeeded`
 * once concluded, else `⏳ claude is working on this` or `✋ claude is waiting for approval`.
 */
export function runHeadline(agent: string, status: RunStatus, conclusion?: RunConclusion): string {
  if (conclusion !== undefined) return `${conclusionEmoji(conclusion)} ${agent} ${conclusionWord(conclusion)}`;
  const shown = statuses[status];
  return `${shown.emoji} ${agent} ${shown.headline}`;
}
