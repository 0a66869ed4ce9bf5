import { runGit } from './git.ts';

/**
 * `git diff` of one file from `from` to `to` (the working tree when `to` is omitted), with
 * `context` lines around each change. `path` is relative to the top of the repository, taken
 * literally; `cwd` is that top (opened with `openRepository`) or a bare repository. No external
 * diff or text conversion runs, whatever the repository's attributes say; no colour, no renames,
 * paths unquoted.
 */
export function fileDiff(
  cwd: string,
  options: { from: string; to?: string; path: string; context: number },
): Promise<string> {
  return runGit(
    [
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--no-color',
      '--no-relative',
      '--no-renames',
      `--unified=${options.context}`,
      options.from,
      ...(options.to === undefined ? [] : [options.to]),
      '--',
      `:(literal)${options.path}`,
    ],
    { cwd },
  );
}
