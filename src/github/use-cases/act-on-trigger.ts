import { errorText } from '../../core/errors/error-text.ts';
import type { GitHubApi } from '../github-api.ts';
import { markers } from '../github-names.ts';
import type { TriggerEvent } from '../trigger/trigger-event.ts';
import type { TriggerDecision } from './decide-trigger.ts';
import { reportConfigError } from './report-config-error.ts';

/** A decision once its writes are done: a `run` carries its `eyes` reaction. */
export type ActedTrigger =
  | Exclude<TriggerDecision, { kind: 'run' }>
  | (Extract<TriggerDecision, { kind: 'run' }> & {
      /** The `eyes` reaction; settled already unless `acknowledgeInBackground` was asked. Never rejects. */
      acknowledged: Promise<void>;
    });

export interface ActOptions {
  log?: (line: string) => void;
  /**
   * Return a `run` without waiting for the `eyes` reaction (a write behind GitHub's write
   * throttle): the Action starts the agent meanwhile. Default false.
   */
  acknowledgeInBackground?: boolean;
}

/**
 * Writes what a trigger decision asks for, and nothing else: a refusal's comment, a config
 * error's comment and failed check run, the `eyes` reaction on what asked for a run. The one
 * place a decision touches GitHub; `decideTrigger` only reads.
 */
export async function actOnTrigger(
  api: GitHubApi,
  decision: TriggerDecision,
  options: ActOptions = {},
): Promise<ActedTrigger> {
  switch (decision.kind) {
    case 'ignore':
    case 'cancel':
    case 'answer':
      return decision;
    case 'refused': {
      const number = decision.event.number;
      if (decision.comment !== undefined && number !== undefined) {
        await api.createComment(decision.event.repo, number, `${markers.refusal}\n${decision.comment}`);
      }
      return decision;
    }
    case 'config_error':
      await reportConfigError(api, decision.event, decision.defaultBranch, decision.message);
      return decision;
    case 'run': {
      const acknowledged = acknowledge(api, decision.event, options.log);
      if (!options.acknowledgeInBackground) await acknowledged;
      return { ...decision, acknowledged };
    }
  }
}

/** The `eyes` reaction on what triggered the run; a failure is only logged. */
async function acknowledge(api: GitHubApi, event: TriggerEvent, log?: (line: string) => void): Promise<void> {
  const source = event.source;
  try {
    if (source.kind === 'issue_comment') {
      await api.addReaction(event.repo, { kind: 'issue_comment', commentId: source.commentId }, 'eyes');
    } else if (source.kind === 'review_comment') {
      await api.addReaction(event.repo, { kind: 'review_comment', commentId: source.commentId }, 'eyes');
    } else if (source.kind === 'issue' && event.number !== undefined) {
      await api.addReaction(event.repo, { kind: 'issue', issueNumber: event.number }, 'eyes');
    }
  } catch (error) {
    log?.(`could not add the eyes reaction: ${errorText(error)}`);
  }
}
