import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorldReady, WorldReply, WorldRequest, WorldStats, WorldTimeline } from './app-world-server.ts';

const script = fileURLToPath(new URL('./app-world-server.ts', import.meta.url));

/** The fake GitHub world running in its own process (see `app-world-server.ts`). */
export interface BenchWorld {
  readonly pid: number | undefined;
  /** The fake API's base URL (`GHE_HOST` for the app). */
  readonly url: string;
  /** `AGENT_MUX_GIT_BASE_URL`: `<gitBase>/octo/demo.git` is the world's bare repository. */
  readonly gitBase: string;
  /**
   * `count` mention payloads (comments posted on issues 1..`issues`, round robin), installation
   * included: installation 1 (default) is `octo/demo`, installation N of `installations` is `octo/demo-N`.
   */
  mentions(count: number, issues: number, body: string, installation?: number): Promise<Record<string, unknown>[]>;
  /** Adds installations 2..`count`, one repository each (`octo/demo-N`). */
  installations(count: number): Promise<void>;
  stats(): Promise<WorldStats>;
  timeline(): Promise<WorldTimeline>;
  close(): Promise<void>;
}

type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Forks the world process with the repository's `.github/agent-mux.yml` text and waits until it is ready. */
export async function startBenchWorld(config: string): Promise<BenchWorld> {
  const child: ChildProcess = fork(script, [config], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // Should this process die without closing the world (a crash), take the child along.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  child.once('exit', () => process.off('exit', orphaned));
  const waiting = new Map<number, (reply: WorldReply) => void>();
  let seq = 0;
  const ready = await new Promise<WorldReady>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the world process exited (${code}) before it was ready`)));
    child.on('message', (message: WorldReply | WorldReady) => {
      if (message.type === 'ready') resolve(message);
      else waiting.get(message.seq)?.(message);
    });
  });
  const ask = <T extends WorldReply['type']>(request: Without<WorldRequest, 'seq'>) =>
    new Promise<Extract<WorldReply, { type: T }>>((resolve) => {
      const id = ++seq;
      waiting.set(id, (reply) => {
        waiting.delete(id);
        resolve(reply as Extract<WorldReply, { type: T }>);
      });
      child.send({ ...request, seq: id });
    });
  return {
    pid: child.pid,
    url: ready.url,
    gitBase: ready.gitBase,
    mentions: async (count, issues, body, installation) =>
      (await ask<'mentions'>({ type: 'mentions', count, issues, body, ...(installation ? { installation } : {}) }))
        .payloads,
    installations: async (count) => {
      await ask<'installations'>({ type: 'installations', count });
    },
    stats: async () => (await ask<'stats'>({ type: 'stats' })).stats,
    timeline: async () => (await ask<'timeline'>({ type: 'timeline' })).timeline,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await Promise.race([ask<'closed'>({ type: 'close' }), exited]);
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
