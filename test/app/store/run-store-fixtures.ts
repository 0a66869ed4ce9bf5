import type { ConcurrencyLimits, RunStore } from '../../../src/app/store/run-store.ts';
import { defaultRepoConfig } from '../../../src/github/config/repo-config-schema.ts';
import type { RunJob } from '../../../src/github/use-cases/run-job.ts';

/** A database for one test: every `open()` is another handle (connection pool, file handle) on it. */
export interface StoreBackend {
  open(): RunStore;
  /** Closes every handle opened and removes the database. */
  dispose(): Promise<void>;
}

const config = defaultRepoConfig();

/** A run job for `owner/repo#number` (no number: a run without an issue). */
export function makeJob(spec: { repo?: string; number?: number; id?: string } = {}): RunJob {
  const [owner = 'octo', repo = 'demo'] = (spec.repo ?? 'octo/demo').split('/');
  return {
    id: spec.id ?? `delivery-${Math.random().toString(36).slice(2)}`,
    repo: { owner, repo },
    number: spec.number,
    isPullRequest: false,
    actor: { login: 'alice', type: 'User' },
    source: { kind: 'issue_comment', commentId: 7 },
    agentName: 'demo',
    instruction: 'fix it',
    prompt: 'fix it\n\n<issue>…</issue>',
    title: 'A bug',
    config,
    defaultBranch: 'main',
    requestedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** Limits that never get in the way. */
export const NO_LIMITS: ConcurrencyLimits = { perRepo: 1000, perAdapter: {}, defaultPerAdapter: 1000 };

/** Claims until the store has nothing more to give; returns the ids claimed. */
export async function claimAll(store: RunStore, workerId: string, limits = NO_LIMITS): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const claimed = await store.claim(workerId, 60_000, limits);
    if (!claimed) return ids;
    ids.push(claimed.run.id);
  }
}
