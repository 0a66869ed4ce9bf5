import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { type ConversationKey, ConversationStateSchema } from '../github/conversation/conversation-state.ts';
import type { ConversationStore, StoredConversation } from '../github/conversation/conversation-store.ts';
import { ConversationStoreError } from '../github/conversation/conversation-store-error.ts';

const KEY_PREFIX = 'agent-mux-conversation-v1';

/**
 * `@actions/cache` (with the Azure SDK it uploads through, about a quarter of the bundle), loaded
 * the first time an entry is restored or saved rather than when the Action starts: ncc puts it in a
 * chunk of its own (a `dist/<id>.index.js` beside `dist/index.js`), so a run without the cache
 * service never compiles it; a run with it loads the chunk when the conversation is restored.
 */
const actionsCache = () => import('@actions/cache');

/**
 * Whether the Actions cache service is there: `isFeatureAvailable()` of `@actions/cache` 5.3.0,
 * which reads only the environment, repeated here so that asking does not load the package. v2
 * (`ACTIONS_CACHE_SERVICE_V2`, never on GHES) needs `ACTIONS_RESULTS_URL`, v1 `ACTIONS_CACHE_URL`.
 */
export function actionsCacheAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  const hostname = new URL(env.GITHUB_SERVER_URL || 'https://github.com').hostname.trimEnd().toUpperCase();
  const ghes = hostname !== 'GITHUB.COM' && !hostname.endsWith('.GHE.COM') && !hostname.endsWith('.LOCALHOST');
  const v2 = !ghes && Boolean(env.ACTIONS_CACHE_SERVICE_V2);
  return v2 ? Boolean(env.ACTIONS_RESULTS_URL) : Boolean(env.ACTIONS_CACHE_URL);
}

/** What the cache entry's `conversation.json` holds beside the session's files. */
const ManifestSchema = z.object({
  state: ConversationStateSchema,
  files: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative() })),
});

export interface ActionsCacheConversationStoreOptions {
  /**
   * Where entries are put together and unpacked. The Actions cache ties an entry to the paths it
   * was saved from, so this must be the same path on every run: `$RUNNER_TEMP/agent-mux-conversation`
   * by default (`/home/runner/work/_temp/…` on GitHub-hosted runners). Never in the workspace.
   */
  stagingDir?: string;
}

/** Every entry of a conversation starts with this (restore keys match by prefix, newest first). */
export function conversationCacheKeyPrefix(key: ConversationKey): string {
  return `${KEY_PREFIX}/${key.repository}/${key.number}/${key.agent}/`;
}

/**
 * Conversations in the GitHub Actions cache (`@actions/cache`): each turn is a new entry (entries
 * cannot be overwritten) keyed by repository, issue or PR number, agent and turn; loading restores
 * the newest. The entry holds `conversation.json` (the state) and the session's files under
 * `files/`. The cache is scoped to the branch the workflow runs on and evicts entries unused for 7
 * days, so an older conversation starts fresh.
 */
export function createActionsCacheConversationStore(
  options: ActionsCacheConversationStoreOptions = {},
): ConversationStore {
  const stagingDir = (code: 'conversation_save_failed' | 'conversation_load_failed'): string => {
    if (options.stagingDir) return options.stagingDir;
    const temp = process.env.RUNNER_TEMP;
    if (!temp) throw new ConversationStoreError(code, 'RUNNER_TEMP is not set (not on an Actions runner)');
    return join(temp, 'agent-mux-conversation');
  };

  return {
    async load(key) {
      const dir = stagingDir('conversation_load_failed');
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      try {
        const prefix = conversationCacheKeyPrefix(key);
        const { restoreCache } = await actionsCache();
        const matched = await restoreCache([dir], `${prefix}latest`, [prefix]);
        if (matched === undefined) return undefined;
        let manifest: z.infer<typeof ManifestSchema>;
        try {
          manifest = ManifestSchema.parse(JSON.parse(await readFile(join(dir, 'conversation.json'), 'utf8')));
        } catch (error) {
          throw new ConversationStoreError('conversation_load_failed', `cache entry ${matched} is not a conversation`, {
            cause: error,
          });
        }
        const files = [];
        for (const file of manifest.files) {
          const content = await readFile(join(dir, 'files', file.path));
          if (content.length !== file.bytes) {
            throw new ConversationStoreError(
              'conversation_load_failed',
              `cache entry ${matched}: ${file.path} is truncated`,
            );
          }
          files.push({ path: file.path, content });
        }
        const bytes = files.reduce((sum, f) => sum + f.content.length, 0);
        return { state: manifest.state, session: { files, bytes } } satisfies StoredConversation;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async save(key, conversation) {
      const dir = stagingDir('conversation_save_failed');
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true, mode: 0o700 });
      try {
        for (const file of conversation.session.files) {
          const target = join(dir, 'files', file.path);
          await mkdir(dirname(target), { recursive: true, mode: 0o700 });
          await writeFile(target, file.content, { mode: 0o600 });
        }
        const manifest = {
          state: conversation.state,
          files: conversation.session.files.map((f) => ({ path: f.path, bytes: f.content.length })),
        } satisfies z.infer<typeof ManifestSchema>;
        await writeFile(join(dir, 'conversation.json'), JSON.stringify(manifest), { mode: 0o600 });
        const { state } = conversation;
        const cacheKey = `${conversationCacheKeyPrefix(key)}${state.turns}-${Date.parse(state.updatedAt)}`;
        let id: number;
        try {
          const { saveCache } = await actionsCache();
          id = await saveCache([dir], cacheKey);
        } catch (error) {
          throw new ConversationStoreError('conversation_save_failed', `could not save cache entry ${cacheKey}`, {
            cause: error,
          });
        }
        // The package logs its own failures (reservation refused, upload failed) and returns -1.
        if (id === -1) {
          throw new ConversationStoreError('conversation_save_failed', `the Actions cache did not keep ${cacheKey}`);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
