/** One item of the checklist: a `progress` summary, or a tool call with its tool and target kept apart. */
export type ProgressStep = ProgressSummaryStep | ToolStep;

/** A step the agent announced (`progress`): its summary is the title. */
export interface ProgressSummaryStep {
  id: string;
  kind: 'progress';
  title: string;
  state: StepState;
}

/** A tool call: `title` is `<tool> <target>` as one line; `tool` and `target` are its parts, for renderers that show them apart. */
export interface ToolStep {
  id: string;
  kind: 'tool';
  title: string;
  /** The tool's name (`read_file`, `github/get_issue`). */
  tool: string;
  /** What the call works on (a path, a command), as far as the title shows it. */
  target?: string;
  state: StepState;
}

/** Where a step is. */
export type StepState = 'running' | 'done' | 'failed';

/**
 * When a step ran, from event timestamps (ms): `startedAt` is the event that opened it, `endedAt`
 * the one that closed it (undefined while it runs). Kept beside the step (`RunProgress.stepTimes`)
 * rather than on it, so a step stays the plain record the reports compare.
 */
export interface StepTimes {
  startedAt: number;
  endedAt: number | undefined;
}

/** A tool-permission request and what became of it. */
export interface ApprovalEntry {
  id: string;
  toolName: string;
  /** The arguments on one line (already redacted by the core), cut short. */
  summary: string;
  /** Why the agent asked, when it said. */
  reason?: string;
  state: 'pending' | 'approved' | 'denied';
  by?: string;
  scope?: 'once' | 'always';
  /** The reason given on denial. */
  denyReason?: string;
  timedOut?: boolean;
}

/**
 * When an approval was asked and decided, from event timestamps (ms); `decidedAt` is the `run_end`
 * when the run ended first, undefined while pending. Kept beside the entry (`RunProgress.approvalTimes`).
 */
export interface ApprovalTimes {
  askedAt: number;
  decidedAt: number | undefined;
}

/** A command the agent's restriction refused (a read-only sandbox), from a failed tool result. */
export interface RefusedCall {
  /** What was run: the command, path or tool name, cut short. */
  target: string;
  /** The refusal as the tool's output worded it (`Read-only file system`). */
  reason: string;
}
