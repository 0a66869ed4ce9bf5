import { runGit } from '../git/git.ts';

/** `<sha> <subject>` of the commits the checkout has over its base, for a follow-up's summary. */
export async function commitsSince(
  cwd: string,
  prepared: { baseSha: string; headSha: string },
  earlier: number,
): Promise<string[]> {
  if (earlier === 0 || prepared.baseSha === prepared.headSha) return [];
  try {
    const out = await runGit(
      ['log', '--no-decorate', '--format=%h %s', '-n', '50', `${prepared.baseSha}..${prepared.headSha}`],
      { cwd },
    );
    return out.split('\n').filter((line) => line.trim() !== '');
  } catch {
    return [];
  }
}
