/**
 * The fake GitHub world of the app benchmark, in a process of its own (forked with IPC) so that
 * serving the app's API traffic does not share an event loop with the benchmark's webhook clock.
 *
 * Started with the repository config as `argv[2]`; sends `{ type: 'ready', url, gitBase }`, then
 * answers `WorldRequest` messages with `WorldReply` messages carrying the same `seq`.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commentEvent, createGitHubWorld } from '../test/support/github-world.ts';

/** What the benchmark asks the world process. */
export type WorldRequest =
  | { seq: number; type: 'mentions'; count: number; issues: number; body: string }
  | { seq: number; type: 'stats' }
  | { seq: number; type: 'close' };

/** What the world counted so far. */
export interface WorldStats {
  requests: number;
  /** Requests other than GET and HEAD. */
  writes: number;
  /** `eyes` reactions created: mentions the app's dispatcher accepted. */
  reactions: number;
  checkRunsCompleted: number;
  pulls: number;
  violations: number;
  firstViolation: string | undefined;
}

/** The world's answer to a `WorldRequest`. */
export type WorldReply =
  | { seq: number; type: 'mentions'; payloads: Record<string, unknown>[] }
  | { seq: number; type: 'stats'; stats: WorldStats }
  | { seq: number; type: 'closed' };

/** The first message: where the fake API and the git base directory are. */
export interface WorldReady {
  type: 'ready';
  url: string;
  gitBase: string;
}

/** The installation every payload carries (the fake's repository is installed as 1). */
export const BENCH_INSTALLATION = { id: 1, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==' };

async function main(): Promise<void> {
  const send = (message: WorldReply | WorldReady) => process.send?.(message);
  const w = await createGitHubWorld({ config: process.argv[2] ?? '' });
  // GitHub's own latency per call (`BENCH_GITHUB_LATENCY_MS`), for the busy-app benchmark.
  w.gh.setLatency(Number(process.env.BENCH_GITHUB_LATENCY_MS ?? 0));
  const root = await mkdtemp(join(tmpdir(), 'agent-mux-bench-git-'));
  const gitBase = join(root, 'git');
  await mkdir(join(gitBase, w.repo.owner), { recursive: true });
  await symlink(w.bare, join(gitBase, w.repo.owner, `${w.repo.repo}.git`));
  let issueCount = 0;

  process.on('message', async (message: WorldRequest) => {
    if (message.type === 'mentions') {
      for (; issueCount < message.issues; issueCount++) {
        w.gh.state.addIssue(w.repo, { number: issueCount + 1, title: `Issue ${issueCount + 1}`, user: 'alice' });
      }
      const payloads: Record<string, unknown>[] = [];
      for (let i = 0; i < message.count; i++) {
        const { payload } = commentEvent(w, (i % message.issues) + 1, 'alice', message.body);
        payloads.push({ ...payload, installation: BENCH_INSTALLATION });
      }
      send({ seq: message.seq, type: 'mentions', payloads });
    } else if (message.type === 'stats') {
      const requests = w.gh.requests;
      send({
        seq: message.seq,
        type: 'stats',
        stats: {
          requests: requests.length,
          writes: requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD').length,
          reactions: requests.filter((r) => r.operationId?.startsWith('reactions/create') === true).length,
          checkRunsCompleted: w.gh.state.checkRuns(w.repo).filter((c) => c.status === 'completed').length,
          pulls: w.gh.state.pulls(w.repo).length,
          violations: w.gh.violations.length,
          firstViolation: w.gh.violations[0],
        },
      });
    } else {
      await w.close();
      await rm(root, { recursive: true, force: true });
      send({ seq: message.seq, type: 'closed' });
      process.disconnect?.();
    }
  });
  send({ type: 'ready', url: w.gh.url, gitBase });
}

await main();
