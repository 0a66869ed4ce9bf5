import type { RunJob } from '../../github/use-cases/run-job.ts';

/** The keys a run is queued under: `owner/repo`, and `owner/repo#N` (or `owner/repo#` without an issue). */
export interface RunKeys {
  repoKey: string;
  issueKey: string;
}

/** The keys of a job, as the store records them; handlers use the same to find a run by its issue. */
export function runKeys(job: Pick<RunJob, 'repo' | 'number'>): RunKeys {
  const repoKey = `${job.repo.owner}/${job.repo.repo}`;
  return { repoKey, issueKey: `${repoKey}#${job.number ?? ''}` };
}
