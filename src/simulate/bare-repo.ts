import { execa } from 'execa';

/** Reads a bare repository the way GitHub serves refs and contents. */
export interface BareRepo {
  readonly path: string;
  /** The commit a branch points at, or undefined when there is no such branch. */
  branchSha(branch: string): Promise<string | undefined>;
  /** The commit a ref or sha names, or undefined. */
  commitOf(ref: string): Promise<string | undefined>;
  /** A file's text at a ref (`git show <ref>:<path>`), or undefined when the ref or the file is absent. */
  fileText(ref: string, path: string): Promise<string | undefined>;
  /** Points a ref (`refs/pull/3/head`, `refs/heads/x`) at a commit. */
  updateRef(ref: string, sha: string): Promise<void>;
}

/** A {@link BareRepo} on the repository at `path`. */
export function bareRepo(path: string): BareRepo {
  const git = (args: string[]) => execa('git', args, { cwd: path, reject: false, stripFinalNewline: false });
  const commitOf = async (ref: string) => {
    const result = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  };
  return {
    path,
    commitOf,
    branchSha: (branch) => commitOf(`refs/heads/${branch}`),
    async fileText(ref, file) {
      const object = `${ref}:${file.replace(/^\/+/, '')}`;
      const type = await git(['cat-file', '-t', '--end-of-options', object]);
      if (type.exitCode !== 0 || type.stdout.trim() !== 'blob') return undefined;
      const shown = await git(['show', '--end-of-options', object]);
      return shown.exitCode === 0 ? shown.stdout : undefined;
    },
    async updateRef(ref, sha) {
      await execa('git', ['update-ref', ref, sha], { cwd: path });
    },
  };
}
