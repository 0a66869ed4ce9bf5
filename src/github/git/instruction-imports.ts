import { posix } from 'node:path';

/**
 * The `@path` imports of an instruction file (Claude Code's `CLAUDE.md`, Gemini CLI's and Qwen
 * Code's `GEMINI.md`/`QWEN.md` memory files), as repository-relative paths. Follows the CLIs'
 * own parser (Gemini CLI's `findImports`, which Claude Code's matches): an `@` at the start of
 * the text or after whitespace, the path running to the next whitespace, starting with `.`, `/`
 * or a letter; none inside a backtick code span or fenced block; resolved against the importing
 * file's folder (an absolute path inside `root`, the checkout, is one of its files). Imports
 * that leave the repository (`../../x`, `~/x`, another absolute path) are dropped: they are not the pull request's to change. Each path also comes without trailing
 * punctuation and without a `#fragment`, so a reader that strips those is covered too.
 */
export function instructionImports(content: string, fromPath: string, root?: string): string[] {
  const codeRegions = [...content.matchAll(/(`+)[\s\S]*?\1/g)].map((match): [number, number] => [
    match.index,
    match.index + match[0].length,
  ]);
  const inCode = (at: number) => codeRegions.some(([start, end]) => at >= start && at < end);
  const folder = posix.dirname(fromPath);
  const found = new Set<string>();
  for (const match of content.matchAll(/(?<=^|[ \t\r\n])@([^ \t\r\n]+)/g)) {
    const raw = match[1]!;
    if (!/^[./A-Za-z]/.test(raw) || inCode(match.index)) continue;
    for (const candidate of new Set([raw, raw.replace(/[.,;:!?)\]}'"]+$/, ''), raw.replace(/#.*$/, '')])) {
      const path = toRepositoryPath(folder, candidate, root);
      if (path !== undefined) found.add(path);
    }
  }
  return [...found];
}

function toRepositoryPath(folder: string, path: string, root: string | undefined): string | undefined {
  if (path === '' || path.startsWith('~')) return undefined;
  if (path.startsWith('/')) {
    // An absolute path into the checkout is one of its files.
    if (root === undefined || !path.startsWith(`${root}/`)) return undefined;
    return toRepositoryPath('.', path.slice(root.length + 1), undefined);
  }
  const joined = posix.normalize(posix.join(folder, path.replace(/\\ /g, ' ')));
  if (joined === '.' || joined === '..' || joined.startsWith('../')) return undefined;
  return joined.replace(/\/+$/, '');
}
