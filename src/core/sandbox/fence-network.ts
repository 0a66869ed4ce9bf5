import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FenceNetworkError } from '../errors/fence-network-error.ts';

/** What the fence's command line needs of its network: where the relays' sockets are, which ports. */
export interface FenceNetworkInside {
  socketDir: string;
  ports: readonly number[];
}

/**
 * The host's half of a fence's own network (`FenceOptions.network: 'own'`): a relay from a socket
 * in `socketDir` to the host's `127.0.0.1:PORT` for each allowed port, and, once the fenced
 * program runs, slirp4netns giving its network namespace egress without the host's loopback
 * (`--disable-host-loopback`). The fence's side is `LOOPBACK_RELAY_SCRIPT`.
 */
export interface FenceNetwork {
  readonly inside: FenceNetworkInside;
  /**
   * Gives the namespace of the fenced program (bwrap, started with pid `pid`) its egress. Resolves
   * once slirp4netns is ready; rejects with `FenceNetworkError` when it cannot (no slirp4netns, the
   * namespace never appeared, slirp4netns failed).
   */
  attach(pid: number): Promise<void>;
  /** Stops slirp4netns and the relays, and removes the sockets. Safe to call more than once. */
  close(): Promise<void>;
}

export interface OpenFenceNetworkOptions {
  /** Host loopback ports the fenced program may reach (each relayed alone). */
  ports: readonly number[];
  /** The slirp4netns program. Default: `slirp4netns` on PATH. */
  slirp4netns?: string;
  /** How long `attach` waits for the namespace and for slirp4netns. Default 10 000 ms. */
  timeoutMs?: number;
}

/** Opens the relays of a fence's own network (its sockets are listening when this resolves). */
export async function openFenceNetwork(options: OpenFenceNetworkOptions): Promise<FenceNetwork> {
  const ports = [...new Set(options.ports)].filter((port) => Number.isInteger(port) && port > 0 && port < 65536);
  const socketDir = mkdtempSync(join(tmpdir(), 'agent-mux-net-'));
  const servers: Server[] = [];
  try {
    for (const port of ports) servers.push(await relayServer(join(socketDir, `${port}.sock`), port));
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    rmSync(socketDir, { recursive: true, force: true });
    throw new FenceNetworkError(`cannot open the fence's loopback relays: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  let slirp: ChildProcess | undefined;
  let closed = false;
  return {
    inside: { socketDir, ports },
    async attach(pid) {
      const deadline = Date.now() + timeoutMs;
      const target = await namespaceChild(pid, deadline, timeoutMs);
      await loopbackConfigured(target, pid, deadline, timeoutMs);
      slirp = await startSlirp(options.slirp4netns ?? 'slirp4netns', target, timeoutMs);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (slirp && slirp.exitCode === null && slirp.signalCode === null) {
        const exited = new Promise((resolve) => slirp?.once('exit', resolve));
        slirp.kill('SIGKILL');
        await exited;
      }
      await Promise.all(servers.map(closeServer));
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

function relayServer(path: string, port: number): Promise<Server> {
  const server = createServer((inner) => {
    const outer = connect(port, '127.0.0.1');
    inner.pipe(outer);
    outer.pipe(inner);
    inner.on('error', () => outer.destroy());
    outer.on('error', () => inner.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The first process of bwrap's namespaces: bwrap's child whose network namespace is not ours.
 * Found from `/proc` (`task/PID/children`, else every process's parent), polled until it exists.
 */
async function namespaceChild(pid: number, deadline: number, timeoutMs: number): Promise<number> {
  const ours = netnsOf('self');
  for (;;) {
    for (const child of childrenOf(pid)) {
      const theirs = netnsOf(String(child));
      if (theirs && theirs !== ours) return child;
    }
    if (!alive(pid)) throw new FenceNetworkError(`the fence (pid ${pid}) ended before its network was set up`);
    if (Date.now() > deadline) {
      throw new FenceNetworkError(`the fence's network namespace did not appear within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Waits until bwrap has set up the namespace's loopback (127.0.0.1 on `lo`, which it adds and
 * brings up itself before it runs anything). slirp4netns's `--configure` brings `lo` up too, and
 * the kernel then gives it 127.0.0.1: started earlier, it makes bwrap's own address request fail
 * with EEXIST, and bwrap dies with "loopback: Failed RTM_NEWADDR" before the agent starts (seen on
 * a loaded machine, one fenced start in a few dozen).
 */
async function loopbackConfigured(target: number, pid: number, deadline: number, timeoutMs: number): Promise<void> {
  for (;;) {
    if (hasLoopbackAddress(target)) return;
    if (!alive(pid)) throw new FenceNetworkError(`the fence (pid ${pid}) ended before its network was set up`);
    if (Date.now() > deadline) {
      throw new FenceNetworkError(`the fence did not set up its loopback within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Whether the network namespace of `pid` has 127.0.0.1 in its routing tables (its `lo` is up with that address). */
function hasLoopbackAddress(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/net/fib_trie`, 'utf8').includes('|-- 127.0.0.1\n');
  } catch {
    return false;
  }
}

function netnsOf(pid: string): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /s.test(stat);
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // Without CONFIG_PROC_CHILDREN: every process whose parent is `pid`.
    const found: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === pid) found.push(Number(entry));
      } catch {
        // Gone meanwhile.
      }
    }
    return found;
  }
}

/** Starts slirp4netns for the namespace of `target`; resolves once it says it is ready. */
function startSlirp(program: string, target: number, timeoutMs: number): Promise<ChildProcess> {
  // Given a PID, slirp4netns joins its user namespace first where agent-mux is not root (checked as
  // `nobody`: an explicit `--userns-path` then fails to join the network namespace).
  const args = ['--configure', '--mtu=65520', '--disable-host-loopback', '--ready-fd=3', String(target), 'tap0'];
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new FenceNetworkError(`slirp4netns was not ready within ${timeoutMs} ms: ${stderr.trim()}`));
    }, timeoutMs);
    const ready = child.stdio[3];
    ready?.once('data', () => {
      clearTimeout(timer);
      child.stderr?.removeAllListeners('data');
      child.stderr?.resume();
      resolve(child);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why =
        error.code === 'ENOENT'
          ? `the fence's network needs ${program}, which is not installed (Debian/Ubuntu: apt-get install slirp4netns)`
          : `${program}: ${error.message}`;
      reject(new FenceNetworkError(why, { cause: error }));
    });
    // `close`, not `exit`: what it printed on stderr has been read by then.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const hint = /\/dev\/net\/tun/.test(stderr)
        ? " (agent-mux's user needs read and write access to /dev/net/tun: mode 0666 as Debian and Ubuntu set it; in Docker, --device /dev/net/tun)"
        : '';
      const why = `slirp4netns ended (${signal ?? `exit ${code}`}) before it was ready: ${stderr.trim()}${hint}`;
      reject(new FenceNetworkError(why));
    });
  });
}
