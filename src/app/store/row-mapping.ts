import type { ApprovalAnswer, PendingApproval } from '../../github/approvals/github-approval-channel.ts';
import type { ConversationKey } from '../../github/conversation/conversation-state.ts';
import type { StoredConversation } from '../../github/conversation/conversation-store.ts';
import { unpackConversation } from '../../github/conversation/pack-conversation.ts';
import { conversationName } from '../../github/conversation/save-conversation.ts';
import type { SteerCandidate } from '../../github/steering/run-steering.ts';
import type { RunJob } from '../../github/use-cases/run-job.ts';
import type { InFlightKeys } from './claim-exclusions.ts';
import { CorruptRowError } from './corrupt-row-error.ts';
import type { RunState, StoredAnswer, StoredEvent, StoredRun, SupersededApproval } from './run-store.ts';

/**
 * Row ↔ record mapping shared by both backends. Columns are snake_case and the same in SQLite and
 * PostgreSQL; numbers may come back as `number` (SQLite), `string` (PostgreSQL `bigint`) or `bigint`,
 * booleans as `0`/`1` or `true`/`false`, JSON as text.
 */
export type Row = Record<string, unknown>;

const RUN_STATES: readonly string[] = [
  'queued',
  'running',
  'awaiting_approval',
  'succeeded',
  'failed',
  'cancelled',
  'timed_out',
];

function column(row: Row, table: string, name: string): unknown {
  if (!(name in row)) throw new CorruptRowError(table, name, 'column missing');
  return row[name];
}

function num(row: Row, table: string, name: string): number {
  const value = column(row, table, name);
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' || typeof value === 'bigint'
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(n)) throw new CorruptRowError(table, name, `not a number: ${String(value)}`);
  return n;
}

function optionalNum(row: Row, table: string, name: string): number | undefined {
  return column(row, table, name) === null ? undefined : num(row, table, name);
}

function str(row: Row, table: string, name: string): string {
  const value = column(row, table, name);
  if (typeof value !== 'string') throw new CorruptRowError(table, name, `not text: ${String(value)}`);
  return value;
}

function optionalStr(row: Row, table: string, name: string): string | undefined {
  return column(row, table, name) === null ? undefined : str(row, table, name);
}

function bool(row: Row, table: string, name: string): boolean {
  const value = column(row, table, name);
  if (value === true || value === 1 || value === 1n) return true;
  if (value === false || value === 0 || value === 0n) return false;
  throw new CorruptRowError(table, name, `not a boolean: ${String(value)}`);
}

function json(row: Row, table: string, name: string): unknown {
  const text = str(row, table, name);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CorruptRowError(table, name, 'unreadable JSON', { cause: error });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function runState(row: Row): RunState {
  const value = str(row, 'runs', 'state');
  if (!RUN_STATES.includes(value)) throw new CorruptRowError('runs', 'state', `unknown state: ${value}`);
  return value as RunState;
}

/** A `runs` row as a `StoredRun`. */
export function runFromRow(row: Row): StoredRun {
  const job = json(row, 'runs', 'job');
  if (!isObject(job)) throw new CorruptRowError('runs', 'job', 'not an object');
  return {
    id: str(row, 'runs', 'id'),
    job: job as unknown as RunJob,
    installationId: optionalNum(row, 'runs', 'installation_id'),
    state: runState(row),
    repoKey: str(row, 'runs', 'repo_key'),
    issueKey: str(row, 'runs', 'issue_key'),
    adapter: str(row, 'runs', 'adapter'),
    attempts: num(row, 'runs', 'attempts'),
    leaseEpoch: num(row, 'runs', 'fencing_token'),
    leaseOwner: optionalStr(row, 'runs', 'lease_owner'),
    leaseToken: optionalStr(row, 'runs', 'lease_token'),
    leaseExpiresAt: optionalNum(row, 'runs', 'lease_expires_at'),
    checkRunId: optionalNum(row, 'runs', 'check_run_id'),
    commentId: optionalNum(row, 'runs', 'comment_id'),
    cancelRequested: bool(row, 'runs', 'cancel_requested'),
    conclusion: optionalStr(row, 'runs', 'conclusion'),
    reason: optionalStr(row, 'runs', 'reason'),
    createdAt: num(row, 'runs', 'created_at'),
    updatedAt: num(row, 'runs', 'updated_at'),
  };
}

/** An `events` row as a `StoredEvent`. */
/** The `events` row of a webhook event, in the column order both stores' `insertEvent` take. */
export function eventRowValues(event: StoredEvent): [string, string, string, number | null, number, string | null] {
  return [
    event.deliveryId,
    event.name,
    JSON.stringify(event.payload) ?? 'null',
    event.installationId ?? null,
    event.receivedAt,
    event.orderKey ?? null,
  ];
}

export function eventFromRow(row: Row): StoredEvent {
  const orderKey = optionalStr(row, 'events', 'order_key');
  const attempts = optionalNum(row, 'events', 'attempts') ?? 0;
  return {
    deliveryId: str(row, 'events', 'delivery_id'),
    name: str(row, 'events', 'name'),
    payload: json(row, 'events', 'payload'),
    installationId: optionalNum(row, 'events', 'installation_id'),
    receivedAt: num(row, 'events', 'received_at'),
    ...(orderKey === undefined ? {} : { orderKey }),
    ...(attempts > 0 ? { attempts } : {}),
  };
}

/**
 * An `answers` row as a `StoredAnswer`; `body` holds the answer (kind `answer`), the reason (kind
 * `void`) or the comment (kind `steer`).
 */
export function answerFromRow(row: Row): StoredAnswer {
  const id = num(row, 'answers', 'id');
  const issueKey = str(row, 'answers', 'issue_key');
  const receivedAt = num(row, 'answers', 'received_at');
  const kind = str(row, 'answers', 'kind');
  const body = json(row, 'answers', 'body');
  if (kind === 'answer') {
    if (!isObject(body)) throw new CorruptRowError('answers', 'body', 'not an object');
    return { id, kind, issueKey, answer: body as unknown as ApprovalAnswer, receivedAt };
  }
  if (kind === 'void') {
    if (typeof body !== 'string') throw new CorruptRowError('answers', 'body', 'not a string');
    return { id, kind, issueKey, reason: body, receivedAt };
  }
  if (kind === 'steer') {
    if (!isObject(body) || typeof body.commentId !== 'number' || typeof body.body !== 'string') {
      throw new CorruptRowError('answers', 'body', 'not a comment to steer with');
    }
    return { id, kind, issueKey, steer: body as unknown as SteerCandidate, receivedAt };
  }
  throw new CorruptRowError('answers', 'kind', `unknown kind: ${kind}`);
}

/** The `body` column of an answer. */
export function answerBody(
  answer:
    | { kind: 'answer'; answer: ApprovalAnswer }
    | { kind: 'void'; reason: string }
    | { kind: 'steer'; steer: SteerCandidate },
): string {
  if (answer.kind === 'steer') return JSON.stringify(answer.steer);
  return JSON.stringify(answer.kind === 'answer' ? answer.answer : answer.reason);
}

/** A `superseded_approvals` row. */
export function supersededApprovalFromRow(row: Row): SupersededApproval {
  return { ...approvalFromRow(row, 'superseded_approvals'), reason: str(row, 'superseded_approvals', 'reason') };
}

/** A `pending_approvals` row. */
export function pendingApprovalFromRow(row: Row): PendingApproval & { runId: string; issueKey: string } {
  return approvalFromRow(row, 'pending_approvals');
}

/** The approval a row of either approvals table holds, with its run and issue. */
function approvalFromRow(
  row: Row,
  table: 'pending_approvals' | 'superseded_approvals',
): PendingApproval & { runId: string; issueKey: string } {
  const approval = json(row, table, 'approval');
  if (!isObject(approval)) throw new CorruptRowError(table, 'approval', 'not an object');
  return {
    ...(approval as unknown as PendingApproval),
    runId: str(row, table, 'run_id'),
    issueKey: str(row, table, 'issue_key'),
  };
}

/** A `conversations` row (state JSON, session blob) as the conversation it keeps, checked. */
export function conversationFromRow(row: Row, key: ConversationKey): StoredConversation {
  const state = column(row, 'conversations', 'state');
  const session = column(row, 'conversations', 'session');
  if (typeof state !== 'string') throw new CorruptRowError('conversations', 'state', 'not text');
  if (!(session instanceof Uint8Array)) throw new CorruptRowError('conversations', 'session', 'not bytes');
  return unpackConversation({ state, session }, conversationName(key));
}

/** A run in flight as the claim's exclusions need it (`inFlightKeys`). */
export function inFlightKeysFromRow(row: Row): InFlightKeys {
  const conversationKey = row.conversation_key;
  return {
    issueKey: str(row, 'runs', 'issue_key'),
    repoKey: str(row, 'runs', 'repo_key'),
    adapter: str(row, 'runs', 'adapter'),
    installation: row.installation_id === null || row.installation_id === undefined ? '' : String(row.installation_id),
    ...(typeof conversationKey === 'string' && conversationKey !== '' ? { conversationKey } : {}),
  };
}
