import { createRequire } from 'node:module';

interface ExampleGroup {
  name: string;
  examples: Record<string, unknown>[];
}

const require = createRequire(import.meta.url);
let groups: ExampleGroup[] | undefined;

/** Every example payload of one webhook event from `@octokit/webhooks-examples` (GitHub's own samples). */
export function webhookExamples(event: string): Record<string, unknown>[] {
  groups ??= require('@octokit/webhooks-examples/api.github.com/index.json') as ExampleGroup[];
  return structuredClone(groups.find((g) => g.name === event)?.examples ?? []);
}

export interface PayloadChanges {
  owner?: string;
  repo?: string;
  /** The comment's, review's or issue's body (whichever the event has). */
  body?: string;
  /** The login of the actor (sender and author). */
  login?: string;
  userType?: 'User' | 'Bot';
  /** Makes an issue_comment's issue a pull request. */
  onPullRequest?: boolean;
  number?: number;
  /** The issue's or pull request's title. */
  title?: string;
  /** The repository's default branch (`repository.default_branch`; GitHub's samples say `master`). */
  defaultBranch?: string;
}

/**
 * A real example payload of `event` with `action`, changed only where a test needs it: the
 * repository, the text, the actor, the issue number. The rest stays GitHub's own sample.
 */
export function webhookPayload(
  event: string,
  action: string,
  changes: PayloadChanges = {},
  pick: (p: Record<string, unknown>) => boolean = () => true,
): Record<string, unknown> {
  const example = webhookExamples(event).find((p) => p.action === action && pick(p));
  if (!example) throw new Error(`no example payload for ${event}.${action}`);
  const p = example as Record<string, Record<string, unknown> & { user?: Record<string, unknown> }>;
  const repository = p.repository as Record<string, unknown> & { owner: Record<string, unknown> };
  if (changes.owner !== undefined) {
    repository.owner.login = changes.owner;
    repository.full_name = `${changes.owner}/${changes.repo ?? repository.name}`;
  }
  if (changes.defaultBranch !== undefined) repository.default_branch = changes.defaultBranch;
  if (changes.repo !== undefined) {
    repository.name = changes.repo;
    repository.full_name = `${repository.owner.login}/${changes.repo}`;
  }
  const text = p.comment ?? p.review ?? p.issue;
  if (changes.body !== undefined && text) text.body = changes.body;
  if (changes.login !== undefined) {
    const user = { ...(p.sender as object), login: changes.login, type: changes.userType ?? 'User' };
    p.sender = user;
    if (text?.user) text.user = { ...text.user, login: changes.login, type: changes.userType ?? 'User' };
  }
  const issue = p.issue ?? p.pull_request;
  if (changes.number !== undefined && issue) issue.number = changes.number;
  if (changes.title !== undefined && issue) issue.title = changes.title;
  if (changes.onPullRequest && p.issue) {
    p.issue.pull_request = {
      url: `https://api.github.com/repos/${repository.full_name}/pulls/${p.issue.number}`,
      html_url: `https://github.com/${repository.full_name}/pull/${p.issue.number}`,
      diff_url: `https://github.com/${repository.full_name}/pull/${p.issue.number}.diff`,
      patch_url: `https://github.com/${repository.full_name}/pull/${p.issue.number}.patch`,
    };
  }
  return example;
}
