import { type ChangedFile, collectChanges } from './collect-changes.ts';
import { findSecretsInChanges } from './find-secrets-in-changes.ts';
import { runGit, spawnGit } from './git.ts';
import { GitError } from './git-error.ts';
import { protocolsFor } from './hardened-git.ts';
import { openRepository, remoteUrlOf } from './open-repository.ts';
import { PushRejectedError } from './push-rejected-error.ts';
import { SecretInChangesError } from './secret-in-changes-error.ts';
import { stageChanges } from './stage-changes.ts';

/** The outcome of `publishChanges`. */
export type PublishResult =
  | { kind: 'no_changes' }
  | {
      kind: 'pushed';
      branch: string;
      commitSha: string;
      files: ChangedFile[];
      /** True when the push created the branch on the remote. */
      created: boolean;
    };

/** Input of `publishChanges`. */
export interface PublishChangesInput {
  /** The checkout (any directory inside it). */
  cwd: string;
  /**
   * The remote to push to: a URL, or a remote name, resolved to the URL `prepareWorkspace` pinned
   * before the agent ran (the configuration's URL now only for a checkout never prepared).
   * Git pushes to that URL, never to a name, so no `url.*.insteadOf` can redirect it. Default: `origin`.
   */
  remote?: string;
  /** A token for HTTPS remotes (see `runGit`). */
  token?: string;
  /** The branch on the remote, without `refs/heads/`. */
  branch: string;
  /** The commit message. */
  message: string;
  /** Author and committer of the commit. */
  author: { name: string; email: string };
  /** Paths left out of the commit (`prepareWorkspace`'s `restored` and `removed`). Default: none. */
  ignore?: readonly string[];
  /**
   * The run's secrets (API keys, other tokens; `token` is always added): when a changed file's
   * path or content holds one, plain or encoded (`findSecretsInChanges`), nothing is committed or
   * pushed and `SecretInChangesError` names the files. Default: `token` only.
   */
  secrets?: Iterable<string | undefined>;
}

/**
 * Commits the agent's changes and pushes them as `HEAD:refs/heads/<branch>`.
 *
 * Stages every change (untracked files included, `.gitignore` respected) except the `ignore`
 * paths, commits with the given author as author and committer (passed as `-c user.name/-c
 * user.email` and the `GIT_AUTHOR_*`/`GIT_COMMITTER_*` variables; no configuration file is
 * changed; no signing; hooks skipped with `--no-verify`, since they could come from the repository
 * under work), then pushes without force. Resolves `no_changes` (and commits nothing) when nothing
 * but ignored paths changed. A push the remote refuses (the branch moved on, a protection rule)
 * throws `PushRejectedError` and is never retried with force; the local commit stays. A change
 * that holds one of the run's secrets throws `SecretInChangesError` before anything is committed.
 * Other failures throw `GitError`.
 */
export async function publishChanges(input: PublishChangesInput): Promise<PublishResult> {
  const repository = await openRepository(input.cwd);
  const root = repository.root;
  const url = remoteUrlOf(repository, input.remote ?? 'origin');
  const ignore = input.ignore ?? [];
  const files = await collectChanges(root, { ignore });
  if (files.length === 0) return { kind: 'no_changes' };
  const leaking = await findSecretsInChanges(root, files, [input.token, ...(input.secrets ?? [])]);
  if (leaking.length > 0) throw new SecretInChangesError(leaking);

  await stageChanges(root, ignore);
  const { name, email } = input.author;
  await runGit(
    [
      '-c',
      `user.name=${name}`,
      '-c',
      `user.email=${email}`,
      '-c',
      'commit.gpgSign=false',
      'commit',
      '--quiet',
      '--no-verify',
      '--cleanup=whitespace',
      '-m',
      input.message,
    ],
    {
      cwd: root,
      env: {
        GIT_AUTHOR_NAME: name,
        GIT_AUTHOR_EMAIL: email,
        GIT_COMMITTER_NAME: name,
        GIT_COMMITTER_EMAIL: email,
      },
    },
  );
  const commitSha = await runGit(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: root });

  const push = await spawnGit(
    ['push', '--porcelain', '--no-verify', '--end-of-options', url, `HEAD:refs/heads/${input.branch}`],
    { cwd: root, token: input.token, ...protocolsFor(url) },
  );
  const status = parsePushStatus(push.stdout, input.branch);
  if (status?.flag === '!') throw new PushRejectedError(input.branch, status.reason);
  if (push.exitCode !== 0 || status === undefined) {
    throw new GitError('push', push.exitCode, push.stderr.trimEnd().split('\n').slice(-20).join('\n'));
  }
  return { kind: 'pushed', branch: input.branch, commitSha, files, created: status.flag === '*' };
}

/**
 * The status line of `git push --porcelain` for `refs/heads/<branch>`:
 * `<flag>\t<from>:<to>\t<summary> (<reason>)`, where the flag is `*` for a new ref, ` ` for a
 * fast-forward, `=` for up to date and `!` for a rejection.
 */
function parsePushStatus(stdout: string, branch: string): { flag: string; reason: string } | undefined {
  const target = `:refs/heads/${branch}`;
  for (const line of stdout.split('\n')) {
    const [flag, refs, summary = ''] = line.split('\t');
    if (flag === undefined || flag.length !== 1 || refs === undefined || !refs.endsWith(target)) continue;
    const match = /^\[([^\]]*)\](?: \((.*)\))?$/.exec(summary);
    const reason = match ? [match[1] === 'rejected' ? '' : match[1], match[2]].filter(Boolean).join(': ') : summary;
    return { flag, reason: reason || summary };
  }
  return undefined;
}
