import type { GitHubApi, RepoRef } from '../github-api.ts';
import { parseTurnRecord, type TurnRecord } from './turn-record.ts';

/** A turn of a conversation and its tracking comment. */
export interface ConversationTurn {
  record: TurnRecord;
  /** The tracking comment's address. */
  url: string;
}

/** An issue's or pull request's conversation as agent-mux's tracking comments record it. */
export interface ConversationHistory {
  /** The number the conversation is kept under: the issue, when the mention is on the pull request opened for it. */
  number: number;
  /** The turns of its current conversation (since its last fresh start), oldest first. */
  turns: ConversationTurn[];
}

export interface ReadConversationInput {
  api: Pick<GitHubApi, 'listComments'>;
  repo: RepoRef;
  /** The issue or pull request the mention is on. */
  number: number;
  /** The pull request's head branch, when the mention is on a pull request. */
  headRef?: string;
  /** The config's `git.branchPrefix`: a PR from `<prefix><issue>-…` may belong to that issue's conversation. */
  branchPrefix: string;
  /** agent-mux's logins: only their comments' records count. */
  selfLogins: readonly string[];
}

/**
 * Reads the conversation a mention continues from agent-mux's own tracking comments (their hidden
 * turn records): those on the issue or pull request itself, and, for a pull request agent-mux
 * opened for an issue (its head branch named after the issue, and a record of that issue naming
 * this pull request), the issue's; for an issue whose conversation opened a pull request, that
 * pull request's. Comments by anyone else are never read as records.
 */
export async function readConversation(input: ReadConversationInput): Promise<ConversationHistory> {
  const self = new Set(input.selfLogins.map((login) => login.toLowerCase()));
  const read = async (number: number): Promise<ConversationTurn[]> => {
    const { data } = await input.api.listComments(input.repo, number);
    const turns: ConversationTurn[] = [];
    for (const comment of data) {
      if (!comment.user || !self.has(comment.user.login.toLowerCase())) continue;
      const record = parseTurnRecord(comment.body);
      if (record) turns.push({ record, url: comment.htmlUrl });
    }
    return turns;
  };

  const own = await read(input.number);
  let number = latest(own)?.record.conversation ?? input.number;
  let turns = own;
  const issue = input.headRef === undefined ? undefined : issueOfBranch(input.headRef, input.branchPrefix);
  if (issue !== undefined && issue !== input.number && (number === input.number || number === issue)) {
    const ofIssue = await read(issue);
    if (ofIssue.some((t) => t.record.pullRequest === input.number)) {
      number = issue;
      turns = [...ofIssue, ...own];
    }
  }
  const pull = latest(turns.filter((t) => t.record.conversation === number))?.record.pullRequest;
  if (pull !== undefined && pull !== input.number && !(issue !== undefined && number === issue)) {
    turns = [...turns, ...(await read(pull))];
  }
  return { number, turns: current(turns.filter((t) => t.record.conversation === number)) };
}

/** The issue number of a branch named `<prefix><issue>-<slug>` or `<prefix><issue>`. */
export function issueOfBranch(branch: string, prefix: string): number | undefined {
  const trimmed = prefix.replace(/\/+$/, '');
  const leaf =
    trimmed === '' ? branch : branch.startsWith(`${trimmed}/`) ? branch.slice(trimmed.length + 1) : undefined;
  const match = leaf === undefined ? null : /^(\d{1,9})(?:-|$)/.exec(leaf);
  return match ? Number(match[1]) : undefined;
}

function latest(turns: readonly ConversationTurn[]): ConversationTurn | undefined {
  return sorted(turns).at(-1);
}

function sorted(turns: readonly ConversationTurn[]): ConversationTurn[] {
  return [...turns].sort((a, b) => Date.parse(a.record.at) - Date.parse(b.record.at) || a.record.turn - b.record.turn);
}

/** The turns since the last fresh start (turn 1), oldest first; one per turn number (the latest wins). */
function current(turns: readonly ConversationTurn[]): ConversationTurn[] {
  const all = sorted(turns);
  const start = all.findLastIndex((t) => t.record.turn === 1);
  return start < 0 ? all : all.slice(start);
}
