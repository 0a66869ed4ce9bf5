import type { FakePull, FakeRepo } from './fake-github-records.ts';
import { renderPull } from './render.ts';
import { branchSha, fallbackSha } from './repo-routes.ts';
import {
  notFound,
  numberParam,
  type RouteContext,
  type RouteHandler,
  refOf,
  repoOf,
  validationFailed,
} from './route-kit.ts';

/** The live head and base shas (a git-backed same-repository head follows its branch). */
async function shasOf(context: RouteContext, repo: FakeRepo, pull: FakePull): Promise<{ head: string; base: string }> {
  let head = pull.headSha;
  if (context.state.git !== undefined && !pull.fromFork) head = (await branchSha(context, repo, pull.headRef)) ?? head;
  const base = (await branchSha(context, repo, pull.baseRef)) ?? fallbackSha(repo, pull.baseRef);
  return { head, base };
}

async function render(context: RouteContext, repo: FakeRepo, pull: FakePull, simple = false): Promise<unknown> {
  return renderPull(context.render, pull, await shasOf(context, repo, pull), simple);
}

interface CreatePullInput {
  title?: string;
  head: string;
  base: string;
  body?: string;
  draft?: boolean;
  maintainer_can_modify?: boolean;
}

/** Pull request routes, by operation id. */
export const pullRoutes: Record<string, RouteHandler> = {
  'pulls/get': async (context) => {
    const repo = repoOf(context);
    const pull = context.state.pull(refOf(context), numberParam(context.params, 'pull_number'));
    if (repo === undefined || pull === undefined) return notFound();
    return { status: 200, body: await render(context, repo, pull) };
  },

  'pulls/list': async (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const state = String(context.query.state ?? 'open');
    const head = typeof context.query.head === 'string' ? context.query.head.toLowerCase() : undefined;
    const base = typeof context.query.base === 'string' ? context.query.base : undefined;
    const pulls = context.state
      .pulls(refOf(context))
      .filter((p) => state === 'all' || p.state === state)
      .filter((p) => head === undefined || `${p.headOwner}:${p.headRef}`.toLowerCase() === head)
      .filter((p) => base === undefined || p.baseRef === base)
      .reverse();
    return { status: 200, body: await Promise.all(pulls.map((p) => render(context, repo, p, true))) };
  },

  'pulls/create': async (context) => {
    const repo = repoOf(context);
    if (repo === undefined) return notFound();
    const input = context.body as CreatePullInput;
    const [headOwner, headRef] = input.head.includes(':')
      ? (input.head.split(':', 2) as [string, string])
      : [repo.owner, input.head];
    const fromFork = headOwner.toLowerCase() !== repo.owner.toLowerCase();
    if ((await branchSha(context, repo, input.base)) === undefined) {
      return validationFailed('Validation Failed', [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    }
    let headSha = fromFork ? undefined : await branchSha(context, repo, headRef);
    if (headSha === undefined && context.state.git !== undefined && !fromFork) {
      return validationFailed('Validation Failed', [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    }
    headSha ??= fallbackSha(repo, `${headOwner}:${headRef}`);
    const duplicate = context.state
      .pulls(refOf(context))
      .find((p) => p.state === 'open' && `${p.headOwner}:${p.headRef}`.toLowerCase() === input.head.toLowerCase());
    const sameRepoDuplicate = context.state
      .pulls(refOf(context))
      .find((p) => p.state === 'open' && !fromFork && !p.fromFork && p.headRef === headRef && p.baseRef === input.base);
    if (duplicate !== undefined || sameRepoDuplicate !== undefined) {
      return validationFailed('Validation Failed', [
        {
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${headOwner}:${headRef}.`,
        },
      ]);
    }
    if (!fromFork && context.state.git === undefined) repo.branches.set(headRef, headSha);
    const pull = context.state.createPull(refOf(context), {
      title: input.title ?? headRef,
      body: input.body ?? '',
      user: context.identity,
      headRef,
      headSha,
      baseRef: input.base,
      headOwner,
      fromFork,
      maintainerCanModify: input.maintainer_can_modify ?? false,
      draft: input.draft ?? false,
    });
    return { status: 201, body: await render(context, repo, pull) };
  },

  'pulls/request-reviewers': async (context) => {
    const repo = repoOf(context);
    const number = numberParam(context.params, 'pull_number');
    const memory = context.state.memory(refOf(context));
    const record = memory?.pull(number);
    if (repo === undefined || memory === undefined || record === undefined) return notFound();
    const input = (context.body ?? {}) as { reviewers?: string[]; team_reviewers?: string[] };
    const users = input.reviewers ?? [];
    const teams = input.team_reviewers ?? [];
    if (users.some((u) => u.toLowerCase() === record.user.login.toLowerCase())) {
      return validationFailed('Review cannot be requested from pull request author.');
    }
    const notCollaborator = users.some((u) => {
      const role = context.state.permissionOf(refOf(context), u);
      return role === undefined || role === 'none';
    });
    if (notCollaborator || teams.some((t) => !context.state.hasTeam(repo.owner, t))) {
      return validationFailed(
        `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner}/${repo.repo} repository.`,
      );
    }
    memory.requestReviews(record.pull, { users, teams });
    const pull = context.state.pull(refOf(context), number);
    return pull === undefined ? notFound() : { status: 201, body: await render(context, repo, pull, true) };
  },
};
