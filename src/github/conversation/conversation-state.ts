import { z } from 'zod';

/** One conversation: an issue or pull request of a repository, with one agent. */
export const ConversationKeySchema = z.object({
  /** `owner/name`. */
  repository: z.string().regex(/^[\w.-]+\/[\w.-]+$/),
  /** The issue or pull request number. */
  number: z.number().int().positive(),
  /** The agent's name as configured (`claude`, `codex`, …). */
  agent: z.string().regex(/^[\w.-]+$/),
});
export type ConversationKey = z.infer<typeof ConversationKeySchema>;

/** What a conversation remembers between runs (turns). */
export const ConversationStateSchema = z.object({
  /** The agent's name as configured. */
  agent: z.string(),
  /** The adapter that ran it (whose session-file declaration applies). */
  adapter: z.string(),
  /** The agent's session id, to resume with. */
  sessionId: z.string().min(1),
  /** The branch the runs commit to, once there is one. */
  branch: z.string().optional(),
  /** The pull request the runs update, once there is one. */
  pullRequest: z.number().int().positive().optional(),
  /**
   * The working directory the session was saved from. Claude files its sessions per directory, so
   * a session restored for another directory (the app clones each run in a directory of its own)
   * is moved to where the agent will look (`SessionFileDeclaration.relocate`).
   */
  cwd: z.string().optional(),
  /** Runs so far. */
  turns: z.number().int().nonnegative(),
  /** ISO 8601 time of the last run. */
  updatedAt: z.iso.datetime(),
});
export type ConversationState = z.infer<typeof ConversationStateSchema>;

/** The longest `conversations.expireDays` a repository may set: a conversation older than this is never continued. */
export const LONGEST_CONVERSATION_DAYS = 365;

/** A conversation untouched for longer than this starts fresh. */
export const DEFAULT_CONVERSATION_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** True when the conversation's last run is older than `maxAgeMs` at `now`. */
export function isConversationExpired(
  state: ConversationState,
  now: Date,
  maxAgeMs: number = DEFAULT_CONVERSATION_MAX_AGE_MS,
): boolean {
  return now.getTime() - Date.parse(state.updatedAt) > maxAgeMs;
}
