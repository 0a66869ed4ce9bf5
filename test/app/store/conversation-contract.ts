import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunStore } from '../../../src/app/store/run-store.ts';
import type { ConversationKey } from '../../../src/github/conversation/conversation-state.ts';
import type { StoredConversation } from '../../../src/github/conversation/conversation-store.ts';
import type { StoreBackend } from './run-store-fixtures.ts';

const KEY: ConversationKey = { repository: 'octo/demo', number: 7, agent: 'claude' };

function conversation(updatedAt: string, files: { path: string; content: Buffer }[], turns = 1): StoredConversation {
  return {
    state: { agent: 'claude', adapter: 'claude', sessionId: `s-${turns}`, turns, updatedAt, cwd: '/work/run-1/repo' },
    session: { files, bytes: files.reduce((sum, file) => sum + file.content.length, 0) },
  };
}

/**
 * What a `RunStore` keeps of conversations, so that any worker of any replica resumes one:
 * `current()` gives the test's store and backend (a fresh database per test).
 */
export function describeStoredConversations(current: () => { store: RunStore; backend: StoreBackend }): void {
  describe('conversations', () => {
    it('gives back, on another handle, the state and every byte of the session files', async () => {
      const { store, backend } = current();
      expect(await store.loadConversation(KEY)).toBeUndefined();
      const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const saved = conversation('2026-11-20T10:00:00.000Z', [
        { path: 'projects/-work-run-1-repo/s-1.jsonl', content: Buffer.from('{"type":"user"}\n') },
        { path: 'projects/-work-run-1-repo/s-1/tool-results/a b.txt', content: everyByte },
        { path: 'empty', content: Buffer.alloc(0) },
      ]);
      await store.saveConversation(KEY, saved);
      const loaded = await backend.open().loadConversation(KEY);
      expect(loaded?.state).toEqual(saved.state);
      expect(loaded?.session.bytes).toBe(saved.session.bytes);
      expect(loaded?.session.files.map((f) => [f.path, f.content.toString('hex')])).toEqual(
        saved.session.files.map((f) => [f.path, f.content.toString('hex')]),
      );
    });

    it('keeps the newest turn: a later save replaces, an earlier one does not', async () => {
      const { store } = current();
      const file = (text: string) => [{ path: 'f', content: Buffer.from(text) }];
      await store.saveConversation(KEY, conversation('2026-11-20T10:00:00.000Z', file('turn 1'), 1));
      await store.saveConversation(KEY, conversation('2026-11-20T11:00:00.000Z', file('turn 2'), 2));
      // A save that arrives late (a worker whose run was taken over) does not undo the newer turn.
      await store.saveConversation(KEY, conversation('2026-11-20T10:30:00.000Z', file('stale'), 1));
      const loaded = await store.loadConversation(KEY);
      expect(loaded?.state.turns).toBe(2);
      expect(loaded?.session.files[0]?.content.toString()).toBe('turn 2');
    });

    it("keeps one installation's conversations within its quota: its oldest make room, others' are untouched", async () => {
      const { store } = current();
      const kib = (n: number) => [{ path: 'session.jsonl', content: randomBytes(n * 1024) }];
      const key = (number: number): ConversationKey => ({ ...KEY, number });
      const heavy = { installationId: 1, quotaBytes: 3 * 1024 };
      await store.saveConversation(key(100), conversation('2026-11-20T09:00:00.000Z', kib(2)), {
        installationId: 2,
        quotaBytes: 3 * 1024,
      });
      await store.saveConversation(key(1), conversation('2026-11-20T10:00:00.000Z', kib(1)), heavy);
      await store.saveConversation(key(2), conversation('2026-11-20T10:01:00.000Z', kib(1)), heavy);
      await store.saveConversation(key(3), conversation('2026-11-20T10:02:00.000Z', kib(1)), heavy);
      expect(await store.loadConversation(key(1))).toBeDefined();
      // A fourth KiB: the least recently saved of installation 1 goes; installation 2's stays.
      await store.saveConversation(key(4), conversation('2026-11-20T10:03:00.000Z', kib(1)), heavy);
      expect(await store.loadConversation(key(1))).toBeUndefined();
      for (const n of [2, 3, 4, 100]) expect(await store.loadConversation(key(n))).toBeDefined();
      // One larger than the whole quota is not kept, says so, and pushes nothing out.
      await expect(
        store.saveConversation(key(5), conversation('2026-11-20T10:04:00.000Z', kib(4)), heavy),
      ).rejects.toThrow(/larger than its installation's store quota/);
      expect(await store.loadConversation(key(5))).toBeUndefined();
      for (const n of [2, 3, 4, 100]) expect(await store.loadConversation(key(n))).toBeDefined();
    });

    it('keeps each repository, number and agent apart', async () => {
      const { store } = current();
      const keys: ConversationKey[] = [
        KEY,
        { ...KEY, agent: 'codex' },
        { ...KEY, number: 8 },
        { ...KEY, repository: 'octo/other' },
      ];
      for (const [i, key] of keys.entries())
        await store.saveConversation(key, conversation(`2026-11-20T10:0${i}:00.000Z`, [], i + 1));
      for (const [i, key] of keys.entries()) expect((await store.loadConversation(key))?.state.turns).toBe(i + 1);
      expect(await store.loadConversation({ ...KEY, number: 9 })).toBeUndefined();
    });

    it('round-trips a 5 MiB session of incompressible bytes', async () => {
      const { store } = current();
      const content = randomBytes(5 * 2 ** 20);
      await store.saveConversation(KEY, conversation('2026-11-20T10:00:00.000Z', [{ path: 'big.jsonl', content }]));
      const loaded = await store.loadConversation(KEY);
      expect(loaded?.session.files[0]?.content.equals(content)).toBe(true);
    });

    it('forgets conversations whose last turn ended before a time, and only those', async () => {
      const { store } = current();
      await store.saveConversation(KEY, conversation('2026-10-01T00:00:00.000Z', []));
      await store.saveConversation({ ...KEY, number: 8 }, conversation('2026-11-20T00:00:00.000Z', []));
      expect(await store.forgetConversations(Date.parse('2026-11-01T00:00:00.000Z'))).toBe(1);
      expect(await store.loadConversation(KEY)).toBeUndefined();
      expect(await store.loadConversation({ ...KEY, number: 8 })).toBeDefined();
    });
  });
}
