import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChangedFile, diffIndex } from './collect-changes.ts';
import { runGit, spawnGit } from './git.ts';
import { protocolsFor } from './hardened-git.ts';
import { openRepository, remoteUrlOf } from './open-repository.ts';

/** The trailer key of the commit a run publishes: `Agent-Mux-Run: <runId>`. */
export const RUN_TRAILER = 'Agent-Mux-Run';

/**
 * The trailer key that says how the run that published a commit ended, when it did not finish:
 * `Agent-Mux-Run-End: budget_exceeded` (its work so far, `limits.budget.keepWork`).
 */
export const RUN_END_TRAILER = 'Agent-Mux-Run-End';

/** How an unfinished run's commit says why it is unfinished. */
export type UnfinishedEnd = 'budget_exceeded';

/** The trailer line of an unfinished run's commit. */
export function runEndTrailer(end: UnfinishedEnd): string {
  return `${RUN_END_TRAILER}: ${end}`;
}

/** The trailer line that marks a commit as the one run `runId` published. */
export function runTrailer(runId: string): string {
  return `${RUN_TRAILER}: ${runId}`;
}

/** A commit of a run found on its branch on the remote. */
export interface RunCommit {
  branch: string;
  commitSha: string;
  /** What the commit changes against its first parent. */
  files: ChangedFile[];
  /** The run had not finished when it published the commit (its `Agent-Mux-Run-End` trailer). */
  unfinished?: UnfinishedEnd;
}

/**
 * The commit run `runId` published when it is the tip of one of `branches` on the remote (a worker
 * pushed it, then died before it reported the result), else undefined. Each branch is fetched (one
 * commit and its parent, into `refs/agent-mux/published/<branch>`), and its tip's `Agent-Mux-Run`
 * trailers are read; a branch the remote does not have is skipped. Run before the agent, in a
 * checkout prepared and pinned by `prepareWorkspace`: the remote's URL is the pinned one.
 */
export async function findRunCommit(input: {
  cwd: string;
  remote?: string;
  token?: string;
  runId: string;
  branches: readonly string[];
}): Promise<RunCommit | undefined> {
  const repository = await openRepository(input.cwd);
  const root = repository.root;
  const url = remoteUrlOf(repository, input.remote ?? 'origin');
  const protocols = protocolsFor(url);
  // A shallow clone (the app's) fetches the tip and its parent; a full one whatever it lacks.
  const shallow = (await runGit(['rev-parse', '--is-shallow-repository'], { cwd: root })) === 'true';
  for (const branch of input.branches) {
    const local = `refs/agent-mux/published/${branch}`;
    const fetched = await spawnGit(
      [
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-recurse-submodules',
        '--no-write-fetch-head',
        ...(shallow ? ['--depth=2'] : []),
        '--end-of-options',
        url,
        `+refs/heads/${branch}:${local}`,
      ],
      { cwd: root, token: input.token, ...protocols },
    );
    if (fetched.exitCode !== 0) continue; // no such branch (or it cannot be read): not this run's
    const commitSha = await runGit(['rev-parse', '--verify', `${local}^{commit}`], { cwd: root });
    const values = await runGit(
      ['show', '-s', `--format=%(trailers:key=${RUN_TRAILER},valueonly,separator=%x00)`, commitSha],
      { cwd: root },
    );
    if (!values.split('\0').some((value) => value.trim() === input.runId)) continue;
    const ends = await runGit(
      ['show', '-s', `--format=%(trailers:key=${RUN_END_TRAILER},valueonly,separator=%x00)`, commitSha],
      { cwd: root },
    );
    const unfinished = ends.split('\0').some((value) => value.trim() === 'budget_exceeded');
    return {
      branch,
      commitSha,
      files: await changesOf(root, commitSha),
      ...(unfinished ? { unfinished: 'budget_exceeded' as const } : {}),
    };
  }
  return undefined;
}

/** The changes of `commit` against its first parent (the empty tree for a root commit). */
async function changesOf(root: string, commit: string): Promise<ChangedFile[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'agent-mux-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(scratch, 'index') };
    await runGit(['read-tree', `${commit}^{tree}`], { cwd: root, env });
    const parent = await spawnGit(['rev-parse', '--verify', '--quiet', `${commit}^1^{commit}`], { cwd: root });
    const from =
      parent.exitCode === 0 ? parent.stdout : await runGit(['hash-object', '-t', 'tree', '/dev/null'], { cwd: root });
    return await diffIndex(root, env, from);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
