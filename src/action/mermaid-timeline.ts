import type { FinishInfo } from '../github/report/finish-info.ts';
import { truncate } from '../github/report/markdown.ts';
import type { RunStatus } from '../github/report/run-lifecycle.ts';
import type { RunProgress } from '../github/report/run-progress.ts';

/** The most tasks a timeline shows (the run's own bar and the gap marker included). */
export const MAX_TIMELINE_TASKS = 100;
/** The longest task name, in characters. */
export const MAX_TASK_NAME = 80;

type Tag = 'done' | 'active' | 'crit';
type Section = 'Run' | 'Agent' | 'Tools' | 'Approvals' | 'Not shown';
const SECTIONS: readonly Section[] = ['Run', 'Agent', 'Tools', 'Approvals', 'Not shown'];

interface Task {
  section: Section;
  name: string;
  tag: Tag | undefined;
  start: number;
  end: number;
}

/**
 * Characters Mermaid's gantt lexer gives a meaning inside a task line, with look-alikes that have
 * none: `:` starts the task data, `#` a comment, `;` ends a statement, `%` starts a comment.
 */
const LOOK_ALIKES: Record<string, string> = { ':': '：', '#': '＃', ';': '；', '%': '％' };

/**
 * Words the lexer reads as a statement (case-insensitively) when a line starts with them, before
 * it would read a task name; a name starting with one is prefixed. Deliberately broad: a prefix
 * match is enough, whatever follows.
 */
const STATEMENT_START =
  /^(?:gantt|dateformat|inclusiveenddates|topaxis|axisformat|tickinterval|includes|excludes|todaymarker|weekday|weekend|title|acctitle|accdescr|section|click|href|call|\d{4}-\d{2}-\d{2})/i;

/**
 * A task name Mermaid's gantt parser reads back as exactly one task name: on one line (control
 * characters and line separators become spaces), without `:` `#` `;` `%` (replaced by full-width
 * look-alikes), not starting with a statement keyword or a date (prefixed with `▸ `), trimmed, at
 * most `MAX_TASK_NAME` characters, never empty.
 */
export function sanitizeTaskName(text: string): string {
  let name = text
    .slice(0, MAX_TASK_NAME * 4)
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .replace(/[:#;%]/g, (c) => LOOK_ALIKES[c] ?? ' ')
    .trim();
  if (name === '') name = 'step';
  if (STATEMENT_START.test(name)) name = `▸ ${name}`;
  return truncate(name, MAX_TASK_NAME).trim();
}

const runTags: Record<RunStatus, Tag> = {
  queued: 'active',
  running: 'active',
  awaiting_approval: 'active',
  completed: 'done',
  failed: 'crit',
  cancelled: 'crit',
  timed_out: 'crit',
};
const stepTags = { running: 'active', done: 'done', failed: 'crit' } as const;
const approvalTags = { pending: 'active', approved: 'done', denied: 'crit' } as const;

/**
 * The run as a Mermaid `gantt` chart (the source, without the code fence). Times are milliseconds
 * since the run's first event (`dateFormat x`), so the `%M:%S` axis reads as elapsed time (in
 * whole-hour time zones, since Mermaid formats in the reader's zone). Sections: `Run` (one bar for
 * the whole run), `Agent` (each `progress` step until the next), `Tools` (each tool call) and
 * `Approvals` (each wait for a decision); anything still open ends at the last event. Tags colour
 * the bars: `done`, `crit` for failures and denials, `active` for what was still open.
 *
 * At most `MAX_TIMELINE_TASKS` tasks: beyond that the earliest and the latest are kept and one
 * task in a `Not shown` section spans (and counts) the rest. Every task line reads
 * `    <name> :[<tag>, ]<start>, <end>` with a sanitized name (`sanitizeTaskName`) and integers
 * `start <= end`; no line can close a Markdown code fence (they are indented four spaces).
 *
 * A progress that saw no event has no timeline: the result is `''`.
 *
 * `options.conclusion`, the front end's verdict when known, colours the run's bar (`done` for a
 * success, `crit` otherwise) instead of the status the events left.
 */
export function renderMermaidTimeline(
  progress: RunProgress,
  options: { conclusion?: FinishInfo['conclusion'] } = {},
): string {
  const origin = progress.startedAt;
  if (origin === undefined) return '';
  const last = Math.max(origin, progress.lastEventAt ?? origin);
  const rel = (at: number) => Math.max(0, Math.round(at - origin));
  const span = (start: number, end: number | undefined) => {
    const from = rel(start);
    return { start: from, end: Math.max(from, rel(end ?? last)) };
  };

  const tasks: Task[] = [];
  for (const step of progress.steps) {
    const times = progress.stepTimes(step);
    if (!times) continue;
    tasks.push({
      section: step.kind === 'progress' ? 'Agent' : 'Tools',
      name: sanitizeTaskName(step.title),
      tag: stepTags[step.state],
      ...span(times.startedAt, times.endedAt),
    });
  }
  for (const approval of progress.approvals) {
    const times = progress.approvalTimes(approval);
    if (!times) continue;
    tasks.push({
      section: 'Approvals',
      name: sanitizeTaskName(
        `${approval.id} ${approval.toolName} (${approval.timedOut ? 'timed out' : approval.state})`,
      ),
      tag: approvalTags[approval.state],
      ...span(times.askedAt, times.decidedAt),
    });
  }
  tasks.sort((a, b) => a.start - b.start);

  const room = MAX_TIMELINE_TASKS - 1;
  let shown = tasks;
  if (tasks.length > room) {
    const keep = room - 1;
    const head = Math.ceil(keep / 2);
    const tail = keep - head;
    const hidden = tasks.slice(head, tasks.length - tail);
    shown = [
      ...tasks.slice(0, head),
      ...tasks.slice(tasks.length - tail),
      {
        section: 'Not shown',
        name: sanitizeTaskName(`… ${hidden.length} more steps`),
        tag: undefined,
        start: hidden[0]!.start,
        // A loop, not Math.max(...): the spread overflows the stack past ~100,000 steps.
        end: hidden.reduce((latest, t) => Math.max(latest, t.end), hidden[0]!.end),
      },
    ];
  }
  const end = Math.max(rel(last), ...shown.map((t) => t.end));
  const run: Task = {
    section: 'Run',
    name: sanitizeTaskName(`${progress.agent} run`),
    tag: options.conclusion ? (options.conclusion === 'success' ? 'done' : 'crit') : runTags[progress.status],
    start: 0,
    end,
  };

  const lines = ['gantt', '    dateFormat x', '    axisFormat %M:%S', '    todayMarker off'];
  for (const section of SECTIONS) {
    const inSection = section === 'Run' ? [run] : shown.filter((t) => t.section === section);
    if (inSection.length === 0) continue;
    lines.push(`    section ${section}`);
    for (const task of inSection) lines.push(taskLine(task));
  }
  return lines.join('\n');
}

function taskLine(task: Task): string {
  return `    ${task.name} :${task.tag ? `${task.tag}, ` : ''}${task.start}, ${task.end}`;
}
