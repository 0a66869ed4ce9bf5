import { z } from 'zod';
import type { RepoRef } from '../github-api.ts';
import type { Actor } from './trigger-event.ts';
import { TriggerPayloadError } from './trigger-payload-error.ts';

/** A webhook's account (`sender`, an author). */
export const userSchema = z.object({ login: z.string().min(1), type: z.string() }).loose();
/** A webhook's `repository`: its name and owner. */
export const repositorySchema = z
  .object({
    name: z.string().min(1),
    owner: z.object({ login: z.string().min(1) }).loose(),
    default_branch: z.string().min(1).optional(),
  })
  .loose();
/** An issue or pull request number. */
export const numberSchema = z.number().int().positive();

/**
 * What every webhook agent-mux reads has: the repository, who sent it and (for an app) the
 * installation. Each event's schema extends it; unknown fields are kept (GitHub adds fields).
 */
export const basePayloadSchema = z
  .object({
    repository: repositorySchema,
    sender: userSchema,
    installation: z.object({ id: z.number().int() }).loose().nullish(),
  })
  .loose();

/** A payload read by {@link basePayloadSchema} or a schema extending it. */
export type BasePayload = z.infer<typeof basePayloadSchema>;

/** Where an event happened and who caused it, from its {@link basePayloadSchema} part. */
export function payloadCommon(
  eventName: string,
  p: BasePayload,
): { eventName: string; repo: RepoRef; actor: Actor; installationId?: number; defaultBranch?: string } {
  const installationId = p.installation?.id;
  const defaultBranch = p.repository.default_branch;
  return {
    eventName,
    repo: { owner: p.repository.owner.login, repo: p.repository.name },
    actor: { login: p.sender.login, type: p.sender.type },
    ...(installationId === undefined ? {} : { installationId }),
    ...(defaultBranch === undefined ? {} : { defaultBranch }),
  };
}

/**
 * Reads a webhook payload with its event's schema.
 *
 * @throws TriggerPayloadError naming each missing or malformed field (the zod error is the cause).
 */
export function parsePayload<T>(eventName: string, schema: z.ZodType<T>, payload: unknown): T {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const detail = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new TriggerPayloadError(eventName, detail, { cause: result.error });
}
