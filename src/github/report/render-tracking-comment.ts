import { type TurnRecord, turnRecordLine } from '../conversation/turn-record.ts';
import { markers } from '../github-names.ts';
import type { FinishInfo, ForkDelivery } from './finish-info.ts';
import { InvalidRunIdError } from './invalid-run-id-error.ts';
import * as md from './markdown.ts';
import { madeReadOnly, renderNotices } from './render-notices.ts';
import { conclusionWord, runHeadline } from './run-lifecycle.ts';
import type { ProgressStep, RunProgress } from './run-progress.ts';
import { costCell, tokensCell } from './usage-cells.ts';

/** GitHub's limit for an issue comment's body. */
export const COMMENT_LIMIT = 65_536;
/** The most of the agent's answer the comment shows (the Action's `final-message` output has it whole, to 8,000). */
const MAX_ANSWER_CHARS = 8000;
/** How many checklist items the comment shows (the newest). */
const MAX_CHECKLIST = 40;
const MAX_PENDING_SHOWN = 20;

const RUN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The hidden first line of a run's tracking comment. Throws `InvalidRunIdError` for ids it cannot hold. */
export function runMarker(runId: string): string {
  if (!RUN_ID.test(runId)) throw new InvalidRunIdError(runId);
  return markers.run(runId);
}

/** The run id of a tracking comment, read only from the marker at the very start of its body. */
export function parseRunMarker(body: string): string | undefined {
  return markers.runPattern.exec(body)?.[1];
}

/** Information the comment needs beyond the progress. */
export interface TrackingCommentInfo {
  runId: string;
  checkRunUrl?: string;
  finished?: FinishInfo;
  conversation?: TrackingConversation;
}

/** Where the run stands in its issue's or pull request's conversation. */
export interface TrackingConversation {
  turn: number;
  /** The earlier turns' tracking comments, oldest first. */
  earlier: readonly { turn: number; url: string }[];
  /** Why the run started a new conversation although there were earlier runs. */
  freshReason?: string;
  /** Earlier requests in the thread that this run takes up too (no run had). */
  alsoTakesUp?: readonly { login: string; url: string }[];
  /** The hidden record of this turn (`FinishInfo.record` replaces it once finished). */
  record: TurnRecord;
}

function checklistItem(step: ProgressStep): string {
  const title = stepTitle(step);
  if (step.state === 'failed') return `- [ ] ${title} — ❌ failed`;
  return `- [${step.state === 'done' ? 'x' : ' '}] ${title}`;
}

/** A progress step's title as text; a tool step's tool and target as code: `` `read_file` `src/a.ts` ``. */
function stepTitle(step: ProgressStep): string {
  if (step.kind !== 'tool') return md.escapeText(step.title);
  return step.target === undefined
    ? md.inlineCode(step.tool)
    : `${md.inlineCode(step.tool)} ${md.inlineCode(step.target)}`;
}

/**
 * The run's one tracking comment: the hidden marker, a checklist of steps, the current step while
 * running, pending approvals with the commands that answer them and, once finished, the outcome,
 * duration, tokens, cost, branch, pull request and a md.link to the check run. At most 65,536 characters.
 */
export function renderTrackingComment(progress: RunProgress, info: TrackingCommentInfo): string {
  const { finished } = info;
  const agent = md.escapeText(progress.agent);
  const lines = [runMarker(info.runId)];
  const conversation = info.conversation;
  if (conversation) lines.push(turnRecordLine(finished?.record ?? conversation.record));
  lines.push(`### ${runHeadline(agent, progress.status, finished?.conclusion)}`);

  if (conversation) lines.push('', ...conversationLines(conversation));

  if (progress.steps.length > 0) {
    lines.push('');
    const shown = progress.steps.slice(-MAX_CHECKLIST);
    if (shown.length < progress.steps.length) {
      lines.push(`- [x] _… ${md.formatCount(progress.steps.length - shown.length)} earlier steps_`);
    }
    for (const step of shown) lines.push(checklistItem(step));
  }

  const notes = renderNotices(progress);
  if (notes.length > 0) lines.push('', ...notes);

  const current = progress.currentStep;
  if (!finished && current) {
    lines.push('', `**Now:** ${stepTitle(current)}`);
  }

  const pending = finished ? [] : progress.pendingApprovals;
  if (pending.length > 0) {
    lines.push('', '#### Waiting for approval');
    lines.push('');
    for (const approval of pending.slice(0, MAX_PENDING_SHOWN)) {
      const reason = approval.reason ? ` — ${md.escapeText(approval.reason)}` : '';
      lines.push(
        `- **${md.inlineCode(approval.id)}** · ${md.inlineCode(approval.toolName)} · ${md.inlineCode(approval.summary)}${reason}<br>` +
          `Reply ${md.inlineCode(`/approve ${approval.id}`)} to allow it, or ${md.inlineCode(`/deny ${approval.id} <reason>`)} to refuse.`,
      );
    }
    if (pending.length > MAX_PENDING_SHOWN) lines.push('', `_… and ${pending.length - MAX_PENDING_SHOWN} more._`);
  }

  const decided = progress.approvals.filter((a) => a.state !== 'pending');
  if (decided.length > 0) {
    lines.push('', '#### Approvals', '');
    for (const a of decided.slice(-MAX_PENDING_SHOWN)) lines.push(`- ${decisionLine(a)}`);
  }

  if (finished) lines.push('', ...outcome(progress, finished));

  const footer: string[] = [];
  if (info.checkRunUrl) footer.push(md.link('Check run', info.checkRunUrl));
  footer.push(`run ${md.inlineCode(info.runId)}`);
  lines.push('', `<sub>${footer.join(' · ')}</sub>`);
  return md.capMarkdown(lines.join('\n'), COMMENT_LIMIT);
}

/** The turn, links to the earlier turns' comments, and why a new conversation started. */
function conversationLines(conversation: TrackingConversation): string[] {
  const lines: string[] = [];
  if (conversation.earlier.length > 0) {
    const links = conversation.earlier.map((t) => md.link(`turn ${t.turn}`, t.url)).join(', ');
    lines.push(`_Turn ${conversation.turn} of this conversation; earlier: ${links}._`);
  }
  if (conversation.freshReason) lines.push(`_New conversation: ${md.escapeText(conversation.freshReason)}._`);
  if (conversation.alsoTakesUp?.length) {
    const links = conversation.alsoTakesUp.map((m) => md.link(`${m.login}'s request`, m.url)).join(', ');
    lines.push(`_Also takes up the earlier ${links}, which no run had._`);
  }
  return lines;
}

function outcome(progress: RunProgress, finished: FinishInfo): string[] {
  const lines: string[] = [];
  if (finished.reason) lines.push(`**Reason:** ${md.escapeText(md.truncate(finished.reason, 1000))}`, '');
  if (finished.conclusion !== 'success' && progress.lastError && progress.lastError !== finished.reason) {
    lines.push(`**Last error:** ${md.escapeText(progress.lastError)}`, '');
  }
  if (finished.noChanges) {
    lines.push(
      madeReadOnly(progress)
        ? 'The agent made no changes: the policy made it read-only (see the note above).'
        : 'The agent made no changes.',
      '',
    );
  }
  if (finished.fork) lines.push(howToTake(finished.fork), '');
  if (finished.answer?.trim()) lines.push(...answerLines(finished.answer));
  // The first pair is the table's header: GitHub needs one, and an empty one shows as an empty row.
  lines.push(`| Outcome | ${conclusionWord(finished.conclusion)} |`, '|---|---|');
  lines.push(`| Duration | ${md.formatDuration(progress.elapsedMs)} |`);
  lines.push(`| Tokens | ${tokensCell(progress)} |`);
  lines.push(`| Cost | ${costCell(progress)} |`);
  if (finished.branch) lines.push(`| Branch | ${md.tableCode(finished.branch)} |`);
  if (finished.pullRequestUrl)
    lines.push(`| Pull request | ${md.link(prLabel(finished.pullRequestUrl), finished.pullRequestUrl)} |`);
  return lines;
}

/** The agent's last message as a quote: its Markdown shown, its @mentions and HTML comments (markers) made inert. */
function answerLines(answer: string): string[] {
  return ['#### Answer', '', md.quoteAgentMarkdown(answer, MAX_ANSWER_CHARS), ''];
}

/** Tells a fork pull request's author how to take the change. */
function howToTake(fork: ForkDelivery): string {
  if (fork.kind === 'suggestions') {
    return `**To take the change:** apply the ${fork.count} suggestion${fork.count === 1 ? '' : 's'} in ${md.link(`review ${fork.reviewId}`, fork.reviewUrl)} (*Files changed* → *Add suggestion to batch* → *Commit suggestions*).`;
  }
  if (fork.kind === 'branch') {
    return `**To take the change:** pull it into your branch: ${md.inlineCode(`git pull ${fork.cloneUrl} ${fork.branch}`)} (your branch's head plus the fix).`;
  }
  return [
    `**To take the change:** merge ${md.link(`#${fork.number}`, fork.url)} into your branch:`,
    `${md.inlineCode(`git pull ${fork.cloneUrl} ${fork.branch}`)} (your branch's head plus the fix);`,
    `or merge #${fork.number} in place of this pull request.`,
  ].join(' ');
}

/** `https://github.com/o/r/pull/12` → `#12`. */
function prLabel(url: string): string {
  const number = /\/pull\/(\d+)\/?$/.exec(url)?.[1];
  return number ? `#${number}` : url;
}

/** One decided approval: the tool, the decision and who made it. */
function decisionLine(a: RunProgress['approvals'][number]): string {
  const who = a.by ? ` by ${md.escapeText(`@${a.by}`)}` : '';
  const tool = `${md.inlineCode(a.toolName)} (${md.inlineCode(a.id)})`;
  if (a.state === 'approved') return `${tool}: approved${who}${a.scope === 'always' ? ' for the rest of the run' : ''}`;
  const reason = a.denyReason ? `: ${md.escapeText(md.truncate(a.denyReason, 200))}` : '';
  return `${tool}: ${a.timedOut ? 'timed out' : 'denied'}${who}${reason}`;
}
