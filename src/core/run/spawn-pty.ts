import type { ExitInfo, SpawnPlan } from '../adapter/index.ts';
import { AgentMuxError, SpawnError } from '../errors/index.ts';
import type { Child } from './child.ts';

type NodePty = typeof import('node-pty');
let loaded: Promise<NodePty> | undefined;

/** node-pty is an optional native dependency: loaded on first use only, never bundled. */
function loadNodePty(): Promise<NodePty> {
  // webpackIgnore keeps this a real dynamic import in the ncc bundle: node-pty is loaded only when a PTY run starts.
  loaded ??= import(/* webpackIgnore: true */ 'node-pty').then(
    (module) => ((module as { default?: NodePty }).default ?? module) as NodePty,
    (error: unknown) => {
      loaded = undefined;
      throw new AgentMuxError(
        'pty_unavailable',
        'this adapter needs a pseudo-terminal but node-pty could not be loaded; install it with `npm install node-pty`',
        { cause: error },
      );
    },
  );
  return loaded;
}

const signalNames: Record<number, NodeJS.Signals> = { 1: 'SIGHUP', 2: 'SIGINT', 9: 'SIGKILL', 15: 'SIGTERM' };

/** Starts a program on a pseudo-terminal; it leads its own session, so its pid is its group id. */
export async function spawnPty(plan: SpawnPlan, env: Record<string, string>, cwd: string): Promise<Child> {
  const pty = await loadNodePty();
  let term: import('node-pty').IPty;
  try {
    term = pty.spawn(plan.command, [...plan.args], { name: 'xterm-256color', cols: 200, rows: 50, cwd, env });
  } catch (error) {
    throw new SpawnError(plan.command, (error as Error).message, { cause: error });
  }
  let resolveDrained: () => void = () => undefined;
  const drained = new Promise<void>((resolve) => {
    resolveDrained = resolve;
  });
  const exited = new Promise<ExitInfo>((resolve) => {
    term.onExit(({ exitCode, signal }) => {
      resolveDrained();
      resolve(signal ? { exitCode: null, signal: signalNames[signal] ?? `SIG${signal}` } : { exitCode, signal: null });
    });
  });
  return {
    pid: term.pid,
    onStdout: (listener) => term.onData(listener),
    onStderr: () => undefined,
    write: async (data) => term.write(data),
    pendingStdinBytes: () => 0,
    closeStdin: () => term.write('\x04'),
    pause: () => term.pause(),
    resume: () => term.resume(),
    exited,
    drained,
  };
}
