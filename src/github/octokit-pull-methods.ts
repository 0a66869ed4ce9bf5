import { z } from 'zod';
import type { PullFile } from './github-api.ts';
import type { PullMethods } from './github-api-groups.ts';
import { pullResponse } from './github-responses.ts';
import type { OctokitRequests } from './octokit-requests.ts';

/** One entry of "list pull request files" (`diff-entry`). */
const pullFileResponse = z
  .object({ filename: z.string(), status: z.string(), patch: z.string().nullish() })
  .loose()
  .transform((f): PullFile => ({ path: f.filename, status: f.status, patch: f.patch ?? undefined }));

/** `createGitHubApi`'s pull-request methods: finding, opening, asking for reviews and listing the files. */
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
