import type { CheckRunConclusion, CheckRunStatus } from '../github/github-api.ts';
import type { RunOutcome } from '../github/use-cases/execute-run.ts';
import type { MemoryGitHubState } from './memory-github-state.ts';

/** Everything a simulation showed: the decision, the run's outcome and what the stand-in GitHub received. */
export interface SimulationReport {
  event: string;
  /** `owner/name` from the payload. */
  repository: string;
  actor: string | undefined;
  defaultBranch: string;
  decision: {
    kind: 'ignore' | 'refused' | 'config_error' | 'cancel' | 'answer' | 'run';
    /** Why nothing ran (ignore, refused), or the config error's message (field and line). */
    reason?: string;
    /** The payload lacks fields its event must carry: the simulation exits 2. */
    malformed?: true;
    agent?: string;
    instruction?: string;
  };
  run?: {
    runId: string;
    conclusion: RunOutcome['conclusion'];
    reason?: string;
    branch?: string;
    pullRequestUrl?: string;
    changedFiles: string[];
    approvals: RunOutcome['approvals'];
  };
  /** What the simulation made up that the payload did not say (e.g. a head branch it lacked). */
  notes: string[];
  comments: { id: number; issueNumber: number; user: string; body: string }[];
  /** Replies the run wrote in review threads (`POST …/comments/{id}/replies`). */
  reviewReplies: { id: number; pullNumber: number; inReplyTo: number; user: string; body: string }[];
  checkRuns: {
    id: number;
    name: string;
    headSha: string;
    status: CheckRunStatus;
    conclusion: CheckRunConclusion | undefined;
    title: string | undefined;
    summary: string | undefined;
    text: string | undefined;
    annotations: { path: string; line: number; level: string; message: string }[];
  }[];
  reactions: { target: string; content: string; user: string }[];
  pullRequests: {
    number: number;
    url: string;
    title: string;
    head: string;
    base: string;
    draft: boolean;
    body: string;
    requestedReviewers: string[];
  }[];
  /** The branch the run pushed, with `git log --stat -1` of it. */
  branch?: { name: string; log: string };
  /** Where the temporary bare repository was kept (`--keep`). */
  bareRepo?: string;
}

/** What the stand-in received, excluding what the payload seeded (comments before the run are left out). */
export function collectReceived(
  state: MemoryGitHubState,
  seededCommentIds: ReadonlySet<number>,
  seededIssueNumbers: ReadonlySet<number>,
  seededReviewCommentIds: ReadonlySet<number> = new Set(),
): Pick<SimulationReport, 'comments' | 'reviewReplies' | 'checkRuns' | 'reactions' | 'pullRequests'> {
  const html = `https://github.com/${state.repo.owner}/${state.repo.repo}`;
  return {
    comments: state
      .comments()
      .filter((c) => !seededCommentIds.has(c.id))
      .map((c) => ({ id: c.id, issueNumber: c.issueNumber, user: c.user.login, body: c.body })),
    reviewReplies: [...state.reviewComments.values()]
      .filter((c) => c.inReplyToId !== undefined && !seededReviewCommentIds.has(c.id))
      .map((c) => ({
        id: c.id,
        pullNumber: c.pullNumber,
        inReplyTo: c.inReplyToId ?? 0,
        user: c.user.login,
        body: c.body,
      })),
    checkRuns: state.checkRuns().map((r) => ({
      id: r.id,
      name: r.name,
      headSha: r.headSha,
      status: r.status,
      conclusion: r.conclusion,
      title: r.output.title,
      summary: r.output.summary,
      text: r.output.text,
      annotations: r.annotations.map((a) => ({ path: a.path, line: a.startLine, level: a.level, message: a.message })),
    })),
    reactions: state.reactions.map((r) => ({
      target: r.target.kind === 'issue' ? `issue #${r.target.id}` : `${r.target.kind.replace('_', ' ')} ${r.target.id}`,
      content: r.content,
      user: r.user.login,
    })),
    pullRequests: state
      .pulls()
      .filter((p) => !seededIssueNumbers.has(p.number))
      .map((p) => ({
        number: p.number,
        url: `${html}/pull/${p.number}`,
        title: p.title,
        head: p.pull.headRef,
        base: p.pull.baseRef,
        draft: p.pull.draft,
        body: p.body,
        requestedReviewers: [...p.pull.requestedReviewers, ...p.pull.requestedTeams],
      })),
  };
}

/**
 * The exit code of `agent-mux simulate`: 0 when the pipeline ran to its end and nothing failed (nothing
 * triggered, refused, or a run concluded `success`), 1 when the run concluded otherwise, 2 when the
 * repository config is invalid.
 */
export function simulationExitCode(report: SimulationReport): number {
  if (report.decision.kind === 'config_error' || report.decision.malformed) return 2;
  if (report.run !== undefined && report.run.conclusion !== 'success') return 1;
  return 0;
}
