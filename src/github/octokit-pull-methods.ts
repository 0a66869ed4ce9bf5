import { z } from 'zod';
import type { CommitComparison, PullFile } from './github-api.ts';
import type { PullMethods } from './github-api-groups.ts';
import { pullResponse } from './github-responses.ts';
import type { OctokitRequests } from './octokit-requests.ts';

/** One entry of "list pull request files" (`diff-entry`). */
const pullFileResponse = z
  .object({ filename: z.string(), status: z.string(), patch: z.string().nullish() })
  .loose()
  .transform((f): PullFile => ({ path: f.filename, status: f.status, patch: f.patch ?? undefined }));

/** GitHub lists at most this many files of a comparison. */
const COMPARE_FILES_LIMIT = 300;

const comparisonResponse = z
  .object({
    status: z.enum(['ahead', 'behind', 'identical', 'diverged']),
    files: z.array(z.object({ filename: z.string(), previous_filename: z.string().optional() }).loose()).optional(),
  })
  .loose()
  .transform(
    (c): CommitComparison => ({
      status: c.status,
      files:
        c.files === undefined || c.files.length >= COMPARE_FILES_LIMIT
          ? undefined
          : c.files.flatMap((f) => (f.previous_filename ? [f.filename, f.previous_filename] : [f.filename])),
    }),
  );

/** `createGitHubApi`'s pull-request methods: finding, opening, asking for reviews, listing the files, comparing commits. */
export function octokitPullMethods({ call }: OctokitRequests): PullMethods {
  return {
    async getPull(ref, number) {
      return (
        await call('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: number }, pullResponse)
      ).data;
    },

    async findOpenPull(ref, headOwner, headBranch) {
      const { data } = await call(
        'GET /repos/{owner}/{repo}/pulls',
        { ...ref, head: `${headOwner}:${headBranch}`, state: 'open', per_page: 1 },
        z.array(pullResponse),
      );
      return data[0];
    },

    async createPull(ref, pull) {
      return (
        await call(
          'POST /repos/{owner}/{repo}/pulls',
          {
            ...ref,
            title: pull.title,
            head: pull.head,
            base: pull.base,
            body: pull.body,
            draft: pull.draft ?? false,
          },
          pullResponse,
        )
      ).data;
    },

    async requestReviewers(ref, number, reviewers) {
      await call(
        'POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers',
        { ...ref, pull_number: number, reviewers: reviewers.users, team_reviewers: reviewers.teams },
        z.unknown(),
      );
    },

    async compareCommits(ref, base, head) {
      // One page of commits is enough: the files are listed in full on every page (up to 300).
      const { data } = await call(
        'GET /repos/{owner}/{repo}/compare/{basehead}',
        { ...ref, basehead: `${base}...${head}`, per_page: 1 },
        comparisonResponse,
      );
      return data;
    },

    async listPullFiles(ref, number) {
      const files: PullFile[] = [];
      // GitHub lists at most 3,000 files, 100 a page.
      for (let page = 1; page <= 30; page++) {
        const { data } = await call(
          'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
          { ...ref, pull_number: number, per_page: 100, page },
          z.array(pullFileResponse),
        );
        files.push(...data);
        if (data.length < 100) break;
      }
      return files;
    },
  };
}
