import { fileDiff } from './file-diff.ts';
import { runGit } from './git.ts';

/** One file of a pull request's diff, as GitHub's "list pull request files" describes it. */
export interface PullFileEntry {
  filename: string;
  status: 'added' | 'removed' | 'modified';
  additions: number;
  deletions: number;
  /** The hunks (from the first `@@`, three lines of context); undefined for a binary file. */
  patch: string | undefined;
}

/**
 * The files of a pull request's diff as GitHub computes it: the head against its merge base with
 * the base (a three-dot diff), three lines of context, renames shown as a removal and an addition.
 * For the stand-ins of GitHub (the fake server, the in-memory simulation) that keep a real bare
 * repository; `gitDir` is that repository.
 */
export async function pullFilesFromGit(gitDir: string, baseSha: string, headSha: string): Promise<PullFileEntry[]> {
  const git = (args: string[]) => runGit(args, { cwd: gitDir });
  const mergeBase = await git(['merge-base', baseSha, headSha]);
  const names = (await git(['diff', '--no-renames', '--name-status', '-z', mergeBase, headSha, '--'])).split('\0');
  const entries: PullFileEntry[] = [];
  for (let index = 0; index + 1 < names.length; index += 2) {
    const code = names[index] ?? '';
    const filename = names[index + 1] ?? '';
    if (code === '' || filename === '') continue;
    const diff = await fileDiff(gitDir, { from: mergeBase, to: headSha, path: filename, context: 3 });
    const at = diff.indexOf('\n@@');
    const patch = at === -1 ? undefined : diff.slice(at + 1);
    const lines = patch?.split('\n') ?? [];
    entries.push({
      filename,
      status: code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified',
      additions: lines.filter((l) => l.startsWith('+')).length,
      deletions: lines.filter((l) => l.startsWith('-')).length,
      patch,
    });
  }
  return entries;
}
