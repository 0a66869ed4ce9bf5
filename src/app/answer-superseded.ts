import { answerName } from '../github/approvals/answer-from.ts';
import { APPROVAL_REPLY_MARKER, type ApprovalAnswer } from '../github/approvals/github-approval-channel.ts';
import { matchApprovalId } from '../github/approvals/match-approval-id.ts';
import type { GitHubApi, RepoRef } from '../github/github-api.ts';
import type { InstallationAccess } from './installation-access.ts';
import type { RunStore } from './store/run-store.ts';

/** What `answerSuperseded` needs. */
export interface AnswerSupersededOptions {
  store: Pick<RunStore, 'pendingApprovals' | 'supersededApprovals'>;
  access: Pick<InstallationAccess, 'api'>;
  installationId: number | undefined;
  /** `owner/repo#N` (see `runKeys`): where to reply. */
  issueKey: string;
  answer: ApprovalAnswer;
  log: (line: string) => void;
}

/**
 * An answer that names an approval of a dead attempt (recovery superseded it; no pending approval of
 * the issue has that id or prefix) is answered on GitHub at once: a reply saying it was superseded,
 * by what, and what is waiting now, and a `confused` reaction on a comment. Returns whether it was
 * such an answer (then it must not be recorded); anything else is left to the run's approval channel.
 */
export async function answerSuperseded(options: AnswerSupersededOptions): Promise<boolean> {
  const typed = options.answer.approvalId;
  if (typed === undefined || typed === '') return false;
  const pending = await options.store.pendingApprovals({ issueKey: options.issueKey });
  if (
    matchApprovalId(
      typed,
      pending.map((p) => p.approvalId),
    ).length > 0
  )
    return false;
  const superseded = await options.store.supersededApprovals({ issueKey: options.issueKey });
  const named = matchApprovalId(
    typed,
    superseded.map((s) => s.approvalId),
  );
  const old = named.length === 1 ? superseded.find((s) => s.approvalId === named[0]) : undefined;
  if (old === undefined) return false;
  const { answer } = options;
  options.log(`answer from @${answer.actor.login} to superseded approval ${old.approvalId} told so`);
  const place = placeOf(options.issueKey);
  if (place === undefined || options.installationId === undefined || answer.actor.type === 'Bot') return true;
  const waiting =
    pending.length === 0
      ? 'Nothing is waiting for approval on this issue now.'
      : `Waiting now: ${pending.map((p) => `\`${p.approvalId}\` (\`${p.toolName}\`, [request](#issuecomment-${p.commentId}))`).join(', ')}.`;
  const what = answerName(answer, true);
  try {
    const api: Pick<GitHubApi, 'createComment' | 'addReaction'> = await options.access.api(options.installationId);
    if (answer.source !== undefined) {
      await api.addReaction(place.repo, answer.source, 'confused');
    }
    await api.createComment(
      place.repo,
      place.number,
      `${APPROVAL_REPLY_MARKER}\n@${answer.actor.login}, your ${what} did not count: [this request](#issuecomment-${old.commentId}) (\`${old.approvalId}\`) was superseded by a new attempt of the run: ${old.reason} ${waiting}`,
    );
  } catch (error) {
    options.log(`could not reply to @${answer.actor.login}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return true;
}

/** The repository and issue number of an issue key `owner/repo#N`. */
function placeOf(issueKey: string): { repo: RepoRef; number: number } | undefined {
  const match = /^([^/]+)\/([^#]+)#(\d+)$/.exec(issueKey);
  if (match === null) return undefined;
  return { repo: { owner: match[1] as string, repo: match[2] as string }, number: Number(match[3]) };
}
