import type { RepoRef } from '../github/github-api.ts';
import { runKeys } from './store/run-keys.ts';

/** The store's key of an issue or pull request (`owner/repo#N`, see `runKeys`). */
export function issueKeyOf(repo: RepoRef, number: number | undefined): string {
  return runKeys({ repo, number }).issueKey;
}
