import { execa, execaSync } from 'execa';

/** A real bare repository that backs branch refs and file contents (`git rev-parse`, `git cat-file`). */
export class GitBacking {
  readonly bareRepo: string;

  constructor(bareRepo: string) {
    this.bareRepo = bareRepo;
  }

  /** The commit a ref names (`refs/heads/main`, a sha, …), or undefined when it does not exist. */
  async commitOf(ref: string): Promise<string | undefined> {
    const result = await execa('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      cwd: this.bareRepo,
      reject: false,
    });
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  }

  /** Same as `commitOf`, blocking (for seeding). */
  commitOfSync(ref: string): string | undefined {
    const result = execaSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
      cwd: this.bareRepo,
      reject: false,
    });
    return result.exitCode === 0 ? result.stdout.trim() : undefined;
  }

  /** A file's bytes and blob sha at a ref, or undefined when the ref or the file (as a blob) is absent. */
  async file(ref: string, path: string): Promise<{ bytes: Uint8Array; sha: string } | undefined> {
    const object = await execa('git', ['rev-parse', '--verify', '--quiet', `${ref}:${path}`], {
      cwd: this.bareRepo,
      reject: false,
    });
    if (object.exitCode !== 0) return undefined;
    const sha = object.stdout.trim();
    const type = await execa('git', ['cat-file', '-t', sha], { cwd: this.bareRepo, reject: false });
    if (type.stdout.trim() !== 'blob') return undefined;
    const blob = await execa('git', ['cat-file', 'blob', sha], {
      cwd: this.bareRepo,
      encoding: 'buffer',
      stripFinalNewline: false,
    });
    return { bytes: blob.stdout, sha };
  }

  /** Points a ref (e.g. `refs/pull/3/head`) at a commit, blocking (for seeding). */
  updateRefSync(ref: string, sha: string): void {
    execaSync('git', ['update-ref', ref, sha], { cwd: this.bareRepo });
  }
}
