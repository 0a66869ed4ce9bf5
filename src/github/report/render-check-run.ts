import type { CheckRunAnnotation, CheckRunOutput } from '../github-api.ts';
import type { FinishInfo } from './finish-info.ts';
import {
  capMarkdown,
  codeFence,
  escapeText,
  formatCount,
  formatDuration,
  inlineCode,
  link,
  tableCode,
  truncate,
} from './markdown.ts';
import { madeReadOnly, renderNotices } from './render-notices.ts';
import { CHECK_RUN_TEXT_LIMIT } from './rolling-log.ts';
import { conclusionWord, statusWord } from './run-lifecycle.ts';
import type { RunProgress } from './run-progress.ts';
import { costCell, tokensCell } from './usage-cells.ts';

/** GitHub's limit of annotations per check-run request. */
export const ANNOTATIONS_PER_REQUEST = 50;
const MAX_TABLE_ROWS = 50;
const MAX_TITLE = 200;

const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** A Markdown table row; every cell is escaped text unless it is already Markdown (`raw`). */
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;

/**
 * The check run's output for a run: a one-line `title`, a Markdown `summary` (status, agent, model,
 * elapsed time, tokens, cost, approvals, files) and the rolling log as `text` in a code block whose
 * fence no log line can close. `summary` and `text` are always within 65,535 characters.
 */
export function renderCheckRunOutput(progress: RunProgress, extra: { finished?: FinishInfo } = {}): CheckRunOutput {
  const { finished } = extra;
  // The front end's conclusion when given, else what the events say.
  const word = finished ? conclusionWord(finished.conclusion) : statusWord(progress.status);
  const steps = progress.steps.length;
  const title = truncate(
    finished ? `${progress.agent}: ${word}` : `${progress.agent}: ${word} — ${plural(steps, 'step')}`,
    MAX_TITLE,
  );
  return { title, summary: renderSummary(progress, word, finished), text: renderLogText(progress) };
}

function renderSummary(progress: RunProgress, word: string, finished: FinishInfo | undefined): string {
  // The first pair is the table's header: GitHub needs one, and an empty one shows as an empty row.
  const lines = [row(['Status', escapeText(word)]), '|---|---|', row(['Agent', escapeText(progress.agent)])];
  if (progress.model) lines.push(row(['Model', escapeText(progress.model)]));
  lines.push(row(['Elapsed', formatDuration(progress.elapsedMs)]));
  lines.push(row(['Tokens', tokensCell(progress)]));
  lines.push(row(['Cost', costCell(progress)]));
  const current = progress.currentStep;
  if (!finished && current) lines.push(row(['Current step', escapeText(current.title)]));
  if (finished?.branch) lines.push(row(['Branch', tableCode(finished.branch)]));
  if (finished?.pullRequestUrl)
    lines.push(row(['Pull request', link(finished.pullRequestUrl, finished.pullRequestUrl)]));
  if (finished?.noChanges)
    lines.push(row(['Changes', madeReadOnly(progress) ? 'none: the agent was read-only' : 'none']));
  if (finished?.reason) lines.push('', `**Reason:** ${escapeText(truncate(finished.reason, 1000))}`);
  if (progress.lastError) lines.push('', `**Last error:** ${escapeText(progress.lastError)}`);
  const notes = renderNotices(progress);
  if (notes.length > 0) lines.push('', ...notes);

  if (progress.approvals.length > 0) {
    lines.push('', '### Approvals', '', row(['ID', 'Tool', 'Arguments', 'Decision', 'By']), '|---|---|---|---|---|');
    const shown = progress.approvals.slice(-MAX_TABLE_ROWS);
    if (shown.length < progress.approvals.length) {
      lines.push(row([`… ${formatCount(progress.approvals.length - shown.length)} earlier`, '', '', '', '']));
    }
    for (const a of shown) {
      const decision =
        a.state === 'pending'
          ? 'pending'
          : a.state === 'approved'
            ? `approved (${a.scope ?? 'once'})`
            : `${a.timedOut ? 'timed out' : 'denied'}${a.denyReason ? `: ${escapeText(truncate(a.denyReason, 200))}` : ''}`;
      lines.push(
        row([tableCode(a.id), tableCode(a.toolName), tableCode(a.summary), decision, a.by ? escapeText(a.by) : '']),
      );
    }
  }

  if (progress.files.length > 0) {
    lines.push('', `### Files written (${formatCount(progress.files.length)})`, '');
    const shown = progress.files.slice(0, MAX_TABLE_ROWS);
    for (const file of shown) lines.push(`- ${inlineCode(truncate(file, 300))}`);
    if (shown.length < progress.files.length)
      lines.push(`- … ${formatCount(progress.files.length - shown.length)} more`);
  }
  return capMarkdown(lines.join('\n'), CHECK_RUN_TEXT_LIMIT);
}

/** The log (with the message being streamed as its last line) in a fenced block, within the limit. */
function renderLogText(progress: RunProgress): string {
  const tail = progress.pendingMessageLine;
  const render = (limit: number) => {
    const tailRoom = tail ? tail.length + 1 : 0;
    const body = progress.log.render(limit - tailRoom);
    return tail ? (body ? `${body}\n${tail}` : tail) : body;
  };
  let body = render(CHECK_RUN_TEXT_LIMIT - 8);
  if (body === '') return '_No activity yet._';
  let fence = codeFence(body);
  const overhead = fence.length * 2 + 2;
  if (body.length + overhead > CHECK_RUN_TEXT_LIMIT) {
    // Fewer lines can only hold shorter backtick runs: the fence still closes.
    body = render(CHECK_RUN_TEXT_LIMIT - overhead);
    fence = codeFence(body);
  }
  return `${fence}\n${body}\n${fence}`.slice(0, CHECK_RUN_TEXT_LIMIT);
}

/** One changed file, as the front end knows it after committing. */
export interface ChangedFile {
  path: string;
  /** The first changed line in the new file, when known. */
  firstLine?: number;
  additions: number;
  deletions: number;
  status: string;
}

/** One `notice` annotation per changed file, pointing at its first changed line. */
export function renderAnnotations(files: readonly ChangedFile[]): CheckRunAnnotation[] {
  return files.map((file) => {
    const line = file.firstLine && file.firstLine > 0 ? file.firstLine : 1;
    return {
      path: file.path,
      startLine: line,
      endLine: line,
      level: 'notice',
      title: truncate(`${file.status}: +${file.additions} −${file.deletions}`, 255),
      message: `Changed by the agent (${file.status}): ${plural(file.additions, 'addition')}, ${plural(file.deletions, 'deletion')}.`,
    };
  });
}

/** Splits annotations into batches GitHub accepts in one request (50 each). */
export function chunkAnnotations<T>(annotations: readonly T[], size = ANNOTATIONS_PER_REQUEST): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < annotations.length; i += size) chunks.push(annotations.slice(i, i + size));
  return chunks;
}
