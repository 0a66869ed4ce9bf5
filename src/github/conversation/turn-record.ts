import { z } from 'zod';
import { markers } from '../github-names.ts';

/** Longest instruction a turn record keeps. */
export const MAX_RECORD_INSTRUCTION_CHARS = 2000;
/** Longest final message of the agent a turn record keeps. */
export const MAX_RECORD_MESSAGE_CHARS = 4000;

/**
 * One run (turn) of a conversation as its tracking comment records it, in a hidden line: what was
 * asked, by which agent, what it answered last and where its commits went. Read back from
 * agent-mux's own comments only; still text a maintainer could edit, so it reaches a prompt only
 * as untrusted content.
 */
export const TurnRecordSchema = z.object({
  /** The issue or pull request number the conversation is kept under (the issue, for the PR opened for it). */
  conversation: z.number().int().positive(),
  turn: z.number().int().positive(),
  /** The job (the mention) the turn ran for: a retried run of the same job is the same turn. */
  job: z.string().max(200).optional(),
  agent: z.string().min(1).max(100),
  /** ISO 8601 time the turn started. */
  at: z.iso.datetime(),
  instruction: z.string().max(MAX_RECORD_INSTRUCTION_CHARS),
  finalMessage: z.string().max(MAX_RECORD_MESSAGE_CHARS).optional(),
  branch: z.string().max(255).optional(),
  pullRequest: z.number().int().positive().optional(),
  /** The comments (mentions) this turn took up: its own, and requests no earlier run took up. */
  comments: z.array(z.number().int().positive()).max(20).optional(),
  /**
   * The mentions delivered to this turn's agent while it ran (steering): taken, so the run each
   * of them started too ends at once, and no later turn takes them up again.
   */
  steered: z.array(z.number().int().positive()).max(50).optional(),
  /** Likewise, the mentions in the pull request's review comments (their ids are another series). */
  steeredReview: z.array(z.number().int().positive()).max(50).optional(),
  /** For a review run that published its review: the head commit it reviewed (`review.incremental` starts from it). */
  reviewed: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional(),
  /** The run's conclusion, once finished. */
  conclusion: z.enum(['success', 'failure', 'cancelled', 'timed_out', 'neutral', 'action_required']).optional(),
});
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

/** The hidden line of a tracking comment that holds its turn record (base64url JSON: no `-->` can end it early). */
export function turnRecordLine(record: TurnRecord): string {
  const kept: TurnRecord = {
    ...record,
    instruction: record.instruction.slice(0, MAX_RECORD_INSTRUCTION_CHARS),
    ...(record.finalMessage === undefined
      ? {}
      : { finalMessage: record.finalMessage.slice(0, MAX_RECORD_MESSAGE_CHARS) }),
  };
  return markers.turn(Buffer.from(JSON.stringify(kept), 'utf8').toString('base64url'));
}

/** The turn record of a tracking comment's body, or undefined when it has none (or a malformed one). */
export function parseTurnRecord(body: string): TurnRecord | undefined {
  const encoded = markers.turnPattern.exec(body)?.[1];
  if (encoded === undefined) return undefined;
  try {
    const parsed = TurnRecordSchema.safeParse(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
