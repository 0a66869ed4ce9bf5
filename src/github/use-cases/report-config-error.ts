import type { GitHubApi } from '../github-api.ts';
import { CONFIG_CHECK_RUN_NAME, markers } from '../github-names.ts';
import { fencedBlock } from '../report/markdown.ts';
import type { TriggerEvent } from '../trigger/trigger-event.ts';

/**
 * An invalid repository config stops the run before it starts: a comment and a failed check run
 * (`agent-mux / config`) name each bad field and its line.
 */
export async function reportConfigError(
  api: GitHubApi,
  event: TriggerEvent,
  defaultBranch: string,
  message: string,
): Promise<void> {
  const body = [
    markers.configError,
    '### agent-mux did not start: the repository config is invalid',
    '',
    fencedBlock(message),
    '',
    `Fix the file on \`${defaultBranch}\` (the config is read from the default branch only) and ask again.`,
  ].join('\n');
  if (event.number !== undefined) await api.createComment(event.repo, event.number, body);
  const headSha =
    event.headSha ??
    (event.isPullRequest && event.number !== undefined
      ? (await api.getPull(event.repo, event.number)).headSha
      : await api.getBranchSha(event.repo, defaultBranch));
  if (headSha === undefined) return;
  const now = new Date().toISOString();
  await api.createCheckRun(event.repo, {
    name: CONFIG_CHECK_RUN_NAME,
    headSha,
    status: 'completed',
    conclusion: 'failure',
    startedAt: now,
    completedAt: now,
    output: { title: 'Invalid agent-mux config', summary: fencedBlock(message) },
  });
}
