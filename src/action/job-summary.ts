import * as md from '../github/report/markdown.ts';
import { conclusionWord, runHeadline } from '../github/report/run-lifecycle.ts';
import type { ApprovalEntry, ProgressStep, RunProgress } from '../github/report/run-progress.ts';
import { costCell, tokensCell } from '../github/report/usage-cells.ts';
import type { RunOutcome } from '../github/use-cases/execute-run.ts';
import { renderMermaidTimeline } from './mermaid-timeline.ts';

/** The most rows a table of the job summary shows; the rest are counted in a last row. */
export const MAX_SUMMARY_ROWS = 200;
/**
 * The most UTF-16 code units of the summary's tables; at 3 UTF-8 bytes each at most, plus the
 * bounded timeline, the whole summary stays under GitHub's 1 MiB per step.
 */
const TABLES_LIMIT = 320_000;
const MAX_CELL = 160;

/** What `renderJobSummary` needs. */
export interface JobSummaryInput {
  outcome: RunOutcome;
  /** The agent's name in the repository's configuration. */
  agent: string;
  /** How long installing the agent's program took, when the Action installed it. */
  installMs?: number;
  /** What started the workflow run. */
  trigger: { event: string; actor: string; repository: string; number?: number };
}

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const cell = (text: string, max = MAX_CELL) => md.escapeText(md.truncate(text, max));
const code = (text: string, max = MAX_CELL) => md.tableCode(md.truncate(text, max));

/** 850 → `850 ms`, 2100 → `2.1 s`, 75_000 → `1 min 15 s`. */
export function formatSpan(ms: number): string {
  const rounded = Math.max(0, Math.round(ms));
  if (rounded < 1000) return `${rounded} ms`;
  if (rounded < 60_000) return `${(rounded / 1000).toFixed(1)} s`;
  return md.formatDuration(rounded);
}

/**
 * The Action's job summary (GitHub-flavoured Markdown for `core.summary.addRaw`): a heading with
 * the conclusion; a table of the run (agent, model, conclusion, duration, tokens, cost, changes,
 * branch, pull request, check run, install time, trigger); the reason and last error of an
 * unsuccessful run; a table of tool calls (tool, target, result, start, duration) and one of
 * approvals (id, tool, arguments, decision, by, reason — why it was denied, else why the agent
 * asked —, time waited); then the run's timeline as a ```` ```mermaid ```` gantt chart
 * (`renderMermaidTimeline`), left out when no event arrived.
 *
 * Everything that came from the agent or a user is escaped; tables show at most
 * `MAX_SUMMARY_ROWS` rows and count the rest; the whole stays under 1 MiB of UTF-8.
 */
export function renderJobSummary(input: JobSummaryInput): string {
  const { outcome, agent } = input;
  const progress = outcome.progress;
  const headline = runHeadline(`agent-mux: ${md.escapeText(agent)}`, progress.status, outcome.conclusion);
  const parts = [`## ${headline}`, '', runTable(input)];
  if (outcome.conclusion !== 'success') {
    if (outcome.reason) parts.push('', `**Reason:** ${cell(outcome.reason, 1000)}`);
    if (progress.lastError) parts.push('', `**Last error:** ${cell(progress.lastError, 1000)}`);
  }
  if (outcome.finalMessage?.trim()) parts.push('', '### Answer', '', md.quoteAgentMarkdown(outcome.finalMessage, 8000));
  const tools = progress.steps.filter((s) => s.kind === 'tool');
  parts.push('', `### Tool calls (${md.formatCount(tools.length)})`, '');
  parts.push(tools.length === 0 ? '_None._' : toolTable(progress, tools));
  if (progress.approvals.length > 0) {
    parts.push('', `### Approvals (${md.formatCount(progress.approvals.length)})`, '', approvalTable(progress));
  }
  let text = md.capMarkdown(parts.join('\n'), TABLES_LIMIT);
  const timeline = renderMermaidTimeline(progress, { conclusion: outcome.conclusion });
  if (timeline !== '') text += `\n\n### Timeline\n\n\`\`\`mermaid\n${timeline}\n\`\`\``;
  return `${text}\n`;
}

function runTable(input: JobSummaryInput): string {
  const { outcome, agent, installMs, trigger } = input;
  const progress = outcome.progress;
  // The first pair is the table's header: GitHub needs one, and an empty one shows as an empty row.
  const lines = [row(['Agent', cell(agent)]), '|---|---|'];
  if (progress.model) lines.push(row(['Model', cell(progress.model)]));
  lines.push(row(['Conclusion', conclusionWord(outcome.conclusion)]));
  lines.push(row(['Duration', md.formatDuration(outcome.end?.durationMs ?? progress.elapsedMs)]));
  const totals = outcome.end?.totals;
  const usage = totals
    ? { ...totals, costReported: progress.costReported, unpricedModels: totals.unpricedModels ?? [] }
    : progress;
  lines.push(row(['Tokens', tokensCell(usage)]));
  lines.push(row(['Cost', costCell(usage)]));
  if (outcome.changedFiles.length > 0) {
    const added = outcome.changedFiles.reduce((n, f) => n + f.additions, 0);
    const deleted = outcome.changedFiles.reduce((n, f) => n + f.deletions, 0);
    const files = `${md.formatCount(outcome.changedFiles.length)} file${outcome.changedFiles.length === 1 ? '' : 's'}`;
    lines.push(row(['Changes', `${files}, +${md.formatCount(added)} −${md.formatCount(deleted)}`]));
  }
  if (outcome.branch) lines.push(row(['Branch', code(outcome.branch, 300)]));
  if (outcome.pullRequestUrl) {
    const number = /\/pull\/(\d+)$/.exec(outcome.pullRequestUrl)?.[1];
    lines.push(row(['Pull request', md.link(number ? `#${number}` : outcome.pullRequestUrl, outcome.pullRequestUrl)]));
  }
  if (outcome.checkRunUrl) lines.push(row(['Check run', md.link(outcome.checkRunName, outcome.checkRunUrl)]));
  if (installMs !== undefined) lines.push(row(['Agent install', formatSpan(installMs)]));
  const where = `${trigger.repository}${trigger.number === undefined ? '' : `#${trigger.number}`}`;
  lines.push(
    row(['Trigger', `${code(trigger.event, 100)} on ${cell(where, 200)} by ${cell(`@${trigger.actor}`, 100)}`]),
  );
  return lines.join('\n');
}

const results: Record<ProgressStep['state'], string> = { done: 'ok', failed: 'failed', running: 'running' };

function toolTable(progress: RunProgress, tools: readonly ProgressStep[]): string {
  const origin = progress.startedAt ?? 0;
  const lines = [row(['Tool', 'Target', 'Result', 'Started', 'Took']), '|---|---|---|---|---|'];
  for (const step of tools.slice(0, MAX_SUMMARY_ROWS)) {
    const times = progress.stepTimes(step);
    const tool = step.kind === 'tool' ? step.tool : step.title;
    const target = step.kind === 'tool' ? (step.target ?? '') : '';
    const took = times?.endedAt === undefined ? '' : formatSpan(times.endedAt - times.startedAt);
    lines.push(
      row([
        code(tool),
        target ? code(target) : '',
        results[step.state],
        times ? md.formatClock(times.startedAt - origin) : '',
        took,
      ]),
    );
  }
  if (tools.length > MAX_SUMMARY_ROWS)
    lines.push(row([`… ${md.formatCount(tools.length - MAX_SUMMARY_ROWS)} more`, '', '', '', '']));
  return lines.join('\n');
}

function decision(approval: ApprovalEntry): string {
  if (approval.state === 'approved') return `approved (${approval.scope ?? 'once'})`;
  if (approval.state === 'denied') return approval.timedOut ? 'timed out' : 'denied';
  return 'pending';
}

function approvalTable(progress: RunProgress): string {
  const lines = [
    row(['ID', 'Tool', 'Arguments', 'Decision', 'By', 'Reason', 'Waited']),
    '|---|---|---|---|---|---|---|',
  ];
  for (const approval of progress.approvals.slice(0, MAX_SUMMARY_ROWS)) {
    const times = progress.approvalTimes(approval);
    const waited = times?.decidedAt === undefined ? '' : formatSpan(times.decidedAt - times.askedAt);
    const reason = approval.state === 'denied' ? approval.denyReason : approval.reason;
    lines.push(
      row([
        code(approval.id, 100),
        code(approval.toolName),
        approval.summary ? code(approval.summary) : '',
        decision(approval),
        approval.by ? cell(approval.by, 100) : '',
        reason ? cell(reason) : '',
        waited,
      ]),
    );
  }
  const more = progress.approvals.length - MAX_SUMMARY_ROWS;
  if (more > 0) lines.push(row([`… ${md.formatCount(more)} more`, '', '', '', '', '', '']));
  return lines.join('\n');
}
