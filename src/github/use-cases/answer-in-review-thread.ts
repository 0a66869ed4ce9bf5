import { changedHunks } from '../git/changed-hunks.ts';
import { runGit } from '../git/git.ts';
import { openRepository } from '../git/open-repository.ts';
import type { GitHubApi, LineRange, ReviewCommentInfo } from '../github-api.ts';
import { renderThreadReply, type ThreadReply } from '../report/render-thread-reply.ts';
import type { RunOutcome } from './execute-run.ts';
import type { RunJob } from './run-job.ts';

/** What `answerInReviewThread` needs of a finished run. */
export interface AnswerInReviewThreadInput {
  /** The run's API: a `redactingApi`, so the reply is redacted like everything else the run writes. */
  api: Pick<GitHubApi, 'replyToReviewComment' | 'getComment' | 'getRepo'>;
  job: RunJob;
  outcome: Pick<
    RunOutcome,
    'runId' | 'conclusion' | 'reason' | 'branch' | 'changedFiles' | 'commentId' | 'checkRunUrl'
  >;
  /** The checkout the agent worked in: its `HEAD` is the commit a published run pushed. */
  workspace: string;
  finalMessage: string | undefined;
  log?: (line: string) => void;
}

/**
 * Answers a request made in a pull request review comment in that comment's thread (`POST
 * …/comments/{comment_id}/replies` on the thread's first comment): the outcome in a sentence, whether the agent's commit changed
 * the commented lines (with the commit), the agent's final message, and links to the tracking
 * comment (which stays on the conversation) and the check run. Does nothing for other sources.
 * Never throws: a failure to answer is logged, the run's outcome stands.
 */
export async function answerInReviewThread(input: AnswerInReviewThreadInput): Promise<void> {
  const { api, job, outcome } = input;
  const source = job.source;
  if (source.kind !== 'review_comment' || job.number === undefined) return;
  try {
    const comment = job.reviewComments?.find((c) => c.id === source.commentId);
    const [trackingCommentUrl, touched] = await Promise.all([
      outcome.commentId === undefined
        ? undefined
        : api.getComment(job.repo, outcome.commentId).then(
            (c) => c.htmlUrl,
            () => undefined,
          ),
      comment === undefined ? undefined : touchedLines(input, comment),
    ]);
    const reply: ThreadReply = {
      runId: outcome.runId,
      agent: job.agentName,
      conclusion: outcome.conclusion,
      changedFiles: outcome.changedFiles.length,
      ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
      ...(outcome.branch === undefined ? {} : { branch: outcome.branch }),
      ...(touched === undefined ? {} : { touched }),
      ...(input.finalMessage === undefined ? {} : { finalMessage: input.finalMessage }),
      ...(trackingCommentUrl === undefined ? {} : { trackingCommentUrl }),
      ...(outcome.checkRunUrl ? { checkRunUrl: outcome.checkRunUrl } : {}),
    };
    // GitHub takes replies to a thread's first comment only ("Replies to replies are not
    // supported"): a mention written as a reply is answered in the same thread through its root.
    const threadRoot = comment?.inReplyToId ?? source.commentId;
    await api.replyToReviewComment(job.repo, job.number, threadRoot, renderThreadReply(reply));
  } catch (error) {
    input.log?.(`could not answer in the review thread: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The lines of the commented file that the pushed commit changed, when they meet the commented
 * range: the comment's current lines on the new side (`RIGHT`) are lines of the commit's parent,
 * so they are compared with the hunks' old lines. Outdated comments and comments on the old side
 * (`LEFT`, the base) are not compared: their lines are not lines of the commit's parent.
 */
async function touchedLines(
  input: AnswerInReviewThreadInput,
  comment: ReviewCommentInfo,
): Promise<ThreadReply['touched'] | undefined> {
  const { outcome } = input;
  const range = comment.lines;
  if (outcome.conclusion !== 'success' || outcome.branch === undefined || range === undefined) return undefined;
  if (comment.side === 'LEFT' || comment.startSide === 'LEFT') return undefined;
  if (!outcome.changedFiles.some((f) => f.path === comment.path)) return undefined;
  const { root } = await openRepository(input.workspace);
  const commitSha = await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: root });
  const hunks = (await changedHunks(root, commitSha, comment.path)).filter((h) => meets(h, range));
  if (hunks.length === 0) return undefined;
  const added = hunks.filter((h) => h.newLines > 0);
  const lines: LineRange = added.length
    ? {
        start: Math.min(...added.map((h) => h.newStart)),
        end: Math.max(...added.map((h) => h.newStart + h.newLines - 1)),
      }
    : {
        start: Math.min(...hunks.map((h) => h.oldStart)),
        end: Math.max(...hunks.map((h) => h.oldStart + h.oldLines - 1)),
      };
  const repoUrl = await input.api.getRepo(input.job.repo).then(
    (r) => r.htmlUrl,
    () => undefined,
  );
  return {
    path: comment.path,
    lines,
    removedOnly: added.length === 0,
    commitSha,
    ...(repoUrl === undefined ? {} : { commitUrl: `${repoUrl}/commit/${commitSha}` }),
  };
}

/** Whether a hunk changes a line of `range`, or adds lines right after one of them. */
function meets(hunk: { oldStart: number; oldLines: number }, range: LineRange): boolean {
  if (hunk.oldLines === 0) return hunk.oldStart >= range.start && hunk.oldStart <= range.end;
  return hunk.oldStart <= range.end && hunk.oldStart + hunk.oldLines - 1 >= range.start;
}
