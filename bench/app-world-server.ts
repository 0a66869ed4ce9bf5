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
  /** Comments on issues 1..`issues` of the installation's repository (`installation` 1, the default, is `octo/demo`). */
  | { seq: number; type: 'mentions'; count: number; issues: number; body: string; installation?: number }
  /** Installations 2..`count`, each with one repository `octo/demo-<id>` on the same git repository. */
  | { seq: number; type: 'installations'; count: number }
  | { seq: number; type: 'timeline' }
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

/** When GitHub saw each `eyes` reaction and each check-run update (ms since the epoch). */
export interface WorldTimeline {
  /** The comment each reaction went on, and when it arrived. */
  reactions: { commentId: number; at: number }[];
  /** Each check run's updates (`PATCH`), in order; `completed` once one of them completed it. */
  checkRuns: { id: number; writes: number[]; completed: boolean }[];
}

/** The world's answer to a `WorldRequest`. */
export type WorldReply =
  | { seq: number; type: 'mentions'; payloads: Record<string, unknown>[] }
  | { seq: number; type: 'installations' }
  | { seq: number; type: 'timeline'; timeline: WorldTimeline }
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
  /** Issues made so far, per installation. */
  const issueCounts = new Map<number, number>();
  const repoOf = (installation: number) =>
    installation === 1 ? w.repo : { owner: w.repo.owner, repo: `${w.repo.repo}-${installation}` };

  process.on('message', async (message: WorldRequest) => {
    if (message.type === 'mentions') {
      const installation = message.installation ?? 1;
      const repo = repoOf(installation);
      const inRepo = { ...w, repo };
      let issueCount = issueCounts.get(installation) ?? 0;
      for (; issueCount < message.issues; issueCount++) {
        w.gh.state.addIssue(repo, { number: issueCount + 1, title: `Issue ${issueCount + 1}`, user: 'alice' });
      }
      issueCounts.set(installation, issueCount);
      const payloads: Record<string, unknown>[] = [];
      for (let i = 0; i < message.count; i++) {
        const { payload } = commentEvent(inRepo, (i % message.issues) + 1, 'alice', message.body);
        const id = { ...BENCH_INSTALLATION, id: installation };
        payloads.push({ ...payload, installation: id });
      }
      send({ seq: message.seq, type: 'mentions', payloads });
    } else if (message.type === 'installations') {
      for (let id = 2; id <= message.count; id++) {
        const repo = repoOf(id);
        w.gh.state.addRepo({ ...repo, defaultBranch: 'main', installationId: id });
        w.gh.state.setPermission(repo, 'alice', 'write');
        await symlink(w.bare, join(gitBase, repo.owner, `${repo.repo}.git`));
      }
      send({ seq: message.seq, type: 'installations' });
    } else if (message.type === 'timeline') {
      const reactions: WorldTimeline['reactions'] = [];
      const checkRuns = new Map<number, WorldTimeline['checkRuns'][number]>();
      for (const r of w.gh.requests) {
        if (r.operationId === 'reactions/create-for-issue-comment') {
          reactions.push({ commentId: Number(r.path.split('/').at(-2)), at: r.at });
        } else if (r.operationId === 'checks/update' && r.status === 200) {
          const id = Number(r.path.split('/').at(-1));
          const entry = checkRuns.get(id) ?? { id, writes: [], completed: false };
          entry.writes.push(r.at);
          if ((r.body as { status?: unknown } | undefined)?.status === 'completed') entry.completed = true;
          checkRuns.set(id, entry);
        }
      }
      send({ seq: message.seq, type: 'timeline', timeline: { reactions, checkRuns: [...checkRuns.values()] } });
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
