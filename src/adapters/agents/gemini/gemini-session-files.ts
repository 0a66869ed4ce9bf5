import { join } from 'node:path';
import type { SessionFileDeclaration, SessionLocation } from '../../../core/adapter/session-files.ts';
import { isRegularFileInside, listFiles, openRegularInside } from '../../../core/files/confined-files.ts';

/** The `sessionId` of a Gemini chat file's first record, or undefined. */
async function chatSessionId(root: string, path: string): Promise<string | undefined> {
  const file = await openRegularInside(root, path).catch(() => undefined);
  if (!file) return undefined;
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(4096), 0, 4096, 0);
    const first = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    const match = first.match(/"sessionId"\s*:\s*"([^"]+)"/);
    return match?.[1];
  } finally {
    await file.close();
  }
}

/**
 * Gemini CLI (seen with 0.61.0): `~/.gemini/tmp/<project>/chats/session-<time>-<first 8 of id>.jsonl`,
 * whose first record names the session id; `<project>` is a short name for the working directory
 * that `tmp/<project>/.project_root` (and `history/<project>/.project_root`) tie to its path.
 */
export const geminiSessionFiles: SessionFileDeclaration = {
  root: (location: SessionLocation) => join(location.home, '.gemini'),
  belongs(path, sessionId) {
    const chat =
      /^tmp\/[^/]+\/chats\/session-[^/]+\.jsonl$/.test(path) && path.endsWith(`-${sessionId.slice(0, 8)}.jsonl`);
    return chat || /^(tmp|history)\/[^/]+\/\.project_root$/.test(path);
  },
  async find(location, sessionId) {
    const root = this.root(location);
    const chats = (await listFiles(root, join(root, 'tmp'))).filter((file) =>
      /^tmp\/[^/]+\/chats\/session-[^/]+\.jsonl$/.test(file),
    );
    const files: string[] = [];
    for (const chat of chats) {
      if (!chat.endsWith(`-${sessionId.slice(0, 8)}.jsonl`)) continue;
      if ((await chatSessionId(root, chat)) !== sessionId) continue;
      const project = chat.split('/')[1] ?? '';
      const markers = [join('tmp', project, '.project_root'), join('history', project, '.project_root')];
      files.push(chat);
      for (const marker of markers) if (await isRegularFileInside(root, marker)) files.push(marker);
    }
    return [...new Set(files)].sort();
  },
  // The project's short name and its `.project_root` files tie the chat to the directory's path:
  // a session does not move to another directory (the app then gives a summary instead).
  relocate: () => undefined,
};
