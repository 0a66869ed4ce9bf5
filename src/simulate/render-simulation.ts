import type { SimulationReport } from './simulation-report.ts';

/** How many of a check run's last text lines the report shows. */
export const CHECK_RUN_TEXT_LINES = 40;

const indent = (text: string, prefix = '    ') =>
  text
    .split('\n')
    .map((line) => (line === '' ? '' : `${prefix}${line}`))
    .join('\n');

function decisionLines(report: SimulationReport): string[] {
  const d = report.decision;
  switch (d.kind) {
    case 'ignore':
      return [`decision: ignored — ${d.reason}`];
    case 'refused':
      return [`decision: refused — ${d.reason}`];
    case 'config_error':
      return ['decision: config error — the repository config is invalid:', indent(d.reason ?? '')];
    case 'run':
      return [`decision: run agent ${d.agent}`, `  instruction: ${d.instruction}`];
    default:
      return [`decision: ${d.kind} — ${d.reason}`];
  }
}

/** The readable report of `agent-mux simulate`. */
export function renderSimulation(report: SimulationReport): string {
  const out: string[] = [
    `simulated ${report.event} on ${report.repository} (default branch ${report.defaultBranch}) by @${report.actor ?? 'unknown'}`,
    ...report.notes.map((note) => `note: ${note}`),
    ...decisionLines(report),
  ];
  if (report.run) {
    const run = report.run;
    out.push(`run ${run.runId}: ${run.conclusion}${run.reason ? ` — ${run.reason}` : ''}`);
    if (run.changedFiles.length > 0) out.push(`  changed: ${run.changedFiles.join(', ')}`);
    for (const a of run.approvals)
      out.push(`  approval ${a.approvalId} (${a.toolName}): ${a.decision}${a.by ? ` by @${a.by}` : ''}`);
  }
  for (const c of report.comments) {
    out.push('', `── comment ${c.id} on #${c.issueNumber} by @${c.user}`, indent(c.body));
  }
  for (const r of report.reviewReplies) {
    out.push(
      '',
      `── reply ${r.id} in the review thread of comment ${r.inReplyTo} on #${r.pullNumber} by @${r.user}`,
      indent(r.body),
    );
  }
  for (const c of report.checkRuns) {
    out.push(
      '',
      `── check run ${c.id} “${c.name}” on ${c.headSha.slice(0, 7)}: ${c.status}${c.conclusion ? ` (${c.conclusion})` : ''}`,
      `  title: ${c.title ?? ''}`,
      '  summary:',
      indent(c.summary ?? ''),
    );
    if (c.text) {
      const lines = c.text.split('\n');
      const tail = lines.slice(-CHECK_RUN_TEXT_LINES);
      out.push(`  text (last ${tail.length} of ${lines.length} lines):`, indent(tail.join('\n')));
    }
    for (const a of c.annotations) out.push(`  annotation ${a.level} ${a.path}:${a.line}: ${a.message}`);
  }
  if (report.reactions.length > 0) out.push('');
  for (const r of report.reactions) out.push(`reaction: ${r.content} on ${r.target} by @${r.user}`);
  for (const p of report.pullRequests) {
    out.push(
      '',
      `── pull request #${p.number}${p.draft ? ' (draft)' : ''}: ${p.title}`,
      `  ${p.head} → ${p.base}  ${p.url}`,
      ...(p.requestedReviewers.length ? [`  review requested from: ${p.requestedReviewers.join(', ')}`] : []),
      indent(p.body),
    );
  }
  if (report.branch) out.push('', `── branch ${report.branch.name}`, indent(report.branch.log));
  if (report.decision.kind === 'run' && report.pullRequests.length === 0) out.push('', 'no pull request');
  if (report.bareRepo) out.push('', `the simulated origin is kept at ${report.bareRepo}`);
  return `${out.join('\n')}\n`;
}
