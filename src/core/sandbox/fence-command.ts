import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, relative, sep } from 'node:path';
import type { FenceNetworkInside } from './fence-network.ts';
import type { FenceOptions } from './fence-options.ts';
import { LOOPBACK_RELAY_SCRIPT } from './loopback-relay-script.ts';

/** What to start inside the fence. */
export interface FenceTarget {
  command: string;
  args: readonly string[];
  /** The working directory (read-write when it lies outside the workspace). */
  cwd: string;
  /** The workspace the agent may change. */
  workspace: string;
  env: Record<string, string>;
  /** The plan's own arguments and environment values: temp files they name are shown read-write. */
  planValues?: readonly string[];
}

/** The bwrap command line that starts the target inside the fence, and its environment. */
export interface FencedCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Directories of the system shown read-only (symbolic links such as merged-/usr `/bin` kept as links). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt'];

/** The fence's own `/tmp` is memory: bounded, so that an agent cannot fill the host's RAM with it. */
const DEFAULT_TMP_BYTES = 1024 * 1024 * 1024;

/** The agent's temp dir inside the file-system fence when its HOME lies under `/tmp`. */
const FENCED_TEMP = '/tmp/.agent-mux-tmp';

/**
 * Wraps a command in bubblewrap according to the fence. With `network: 'own'`, `network` is the
 * open `FenceNetwork`'s inside (the agent is started by the loopback relay); without it, such a
 * fence has no network at all.
 */
export function fenceCommand(fence: FenceOptions, target: FenceTarget, network?: FenceNetworkInside): FencedCommand {
  const bwrap = fence.bwrap ?? 'bwrap';
  // Started as root (an app or runner running as root), the agent keeps no capability: it cannot
  // sniff the loopback (CAP_NET_RAW), load modules, change the host's mounts or read others' files.
  const common = ['--unshare-pid', '--die-with-parent', ...(process.getuid?.() === 0 ? ['--cap-drop', 'ALL'] : [])];
  const tmp = ['--size', String(fence.tmpBytes ?? DEFAULT_TMP_BYTES), '--tmpfs', '/tmp'];
  if (fence.kind === 'processes') {
    const args = [...common, '--dev-bind', '/', '/', '--proc', '/proc'];
    for (const path of fence.hidden ?? []) if (existsSync(path)) args.push('--tmpfs', path);
    if (fence.privateTmp) args.push(...tmp);
    // Binds come from the host as it is, after the above: a path shown inside a hidden one (or the
    // private /tmp) is shown again — the tool cache, the run's own temp files, a HOME under /tmp.
    for (const path of fence.readOnly ?? []) args.push('--ro-bind-try', path, path);
    if (fence.privateTmp) {
      // The agent's program where it lies under /tmp (a checkout or install there): its tree is
      // shown read-only, and what is hidden inside it stays hidden.
      const trees = programTrees(target);
      for (const tree of trees) args.push('--ro-bind', tree, tree);
      for (const path of fence.hidden ?? []) {
        if (trees.some((tree) => inside(path, tree)) && existsSync(path)) args.push('--tmpfs', path);
      }
      for (const path of planTempPaths(target)) args.push('--bind', path, path);
    }
    for (const path of fence.readWrite ?? []) args.push('--bind-try', path, path);
    // The workspace stays writable whatever lies around it.
    args.push('--bind', target.workspace, target.workspace);
    if (!inside(target.cwd, target.workspace)) args.push('--bind', target.cwd, target.cwd);
    args.push('--chdir', target.cwd, target.command, ...target.args);
    return { command: bwrap, args, env: target.env };
  }
  // A user namespace of its own (bwrap makes one anyway when not run as root).
  const args = [...common, '--unshare-user', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  const ownNetwork = fence.network === 'own' && network !== undefined;
  if (fence.network === 'own' || fence.network === 'none') args.push('--unshare-net');
  for (const dir of SYSTEM_DIRS) args.push(...systemDir(dir));
  args.push(...resolvConf());
  args.push('--proc', '/proc', ...devices(ownNetwork), ...tmp);
  // The run's own temporary files an adapter's plan points at (`--mcp-config /tmp/agent-mux-…/mcp.json`).
  for (const path of planTempPaths(target)) args.push('--bind', path, path);
  for (const path of fence.readOnly ?? []) args.push('--ro-bind-try', path, path);
  for (const path of fence.readWrite ?? []) args.push('--bind-try', path, path);
  if (isAbsolute(target.command) && existsSync(target.command)) args.push('--ro-bind', target.command, target.command);
  args.push('--bind', target.workspace, target.workspace);
  if (!inside(target.cwd, target.workspace)) args.push('--bind', target.cwd, target.cwd);
  const env = { ...target.env };
  if (fence.home !== undefined) {
    mkdirSync(fence.home, { recursive: true, mode: 0o700 });
    args.push('--bind', fence.home, fence.home);
    env.HOME = fence.home;
  } else {
    delete env.HOME;
  }
  // A HOME under /tmp (a work dir there) would lie inside the agent's temp dir, where Codex refuses
  // its sandbox helpers: the agent then gets a temp dir of its own beside it.
  const temp = fence.home !== undefined && inside(fence.home, '/tmp') ? FENCED_TEMP : '/tmp';
  if (temp !== '/tmp') {
    args.push('--dir', temp);
    env.TMPDIR = temp;
  }
  for (const name of ['TMPDIR', 'TEMP', 'TMP']) if (env[name] !== undefined) env[name] = temp;
  args.push('--chdir', target.cwd);
  if (ownNetwork) {
    // The relay (Node, as a script) starts the agent once the namespace has its egress.
    args.push('--ro-bind', process.execPath, process.execPath, '--ro-bind', network.socketDir, network.socketDir);
    args.push(process.execPath, '-e', LOOPBACK_RELAY_SCRIPT, '--', network.socketDir, network.ports.join(','));
  }
  args.push(target.command, ...target.args);
  return { command: bwrap, args, env };
}

/** The host's device nodes a `/dev` built by hand shows (no devpts of its own). */
const DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'];

/**
 * The fence's `/dev`. Usually bwrap's own (`--dev`). Not as root with a network of its own: for its
 * devpts bwrap then maps the agent to uid 0 and moves it into a second user namespace, whose
 * capabilities do not cover the network namespace, so slirp4netns (which joins the agent's user
 * namespace) could not set it up. There `/dev` is built of the usual nodes, with the host's
 * `/dev/pts` and `/dev/ptmx` for pseudo-terminals.
 */
function devices(ownNetwork: boolean): string[] {
  if (!ownNetwork || process.getuid?.() === 0) return ['--dev', '/dev'];
  const args = ['--tmpfs', '/dev'];
  for (const node of DEVICES) args.push('--dev-bind-try', node, node);
  args.push('--dev-bind-try', '/dev/pts', '/dev/pts', '--dev-bind-try', '/dev/ptmx', '/dev/ptmx');
  args.push('--tmpfs', '/dev/shm', '--symlink', '/proc/self/fd', '/dev/fd');
  for (const [index, name] of ['stdin', 'stdout', 'stderr'].entries()) {
    args.push('--symlink', `/proc/self/fd/${index}`, `/dev/${name}`);
  }
  return args;
}

function systemDir(dir: string): string[] {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dir);
  } catch {
    return [];
  }
  if (stat.isSymbolicLink()) return ['--symlink', readlinkSync(dir), dir];
  return stat.isDirectory() ? ['--ro-bind', dir, dir] : [];
}

/** `/etc/resolv.conf` may point outside `/etc` (systemd-resolved): show its target too. */
function resolvConf(): string[] {
  try {
    const real = realpathSync('/etc/resolv.conf');
    return real.startsWith('/etc/') ? [] : ['--ro-bind', real, real];
  } catch {
    return [];
  }
}

/** The top-level directories of `/tmp` that hold the target's program or the absolute paths of its arguments. */
function programTrees(target: FenceTarget): string[] {
  const trees = new Set<string>();
  for (const path of [target.command, ...target.args]) {
    if (!isAbsolute(path) || !inside(path, '/tmp') || path === '/tmp') continue;
    const top = `/tmp/${relative('/tmp', path).split(sep)[0]}`;
    if (existsSync(top)) trees.add(top);
  }
  return [...trees];
}

/** Top-level `agent-mux-*` entries of the host's temp directory that the plan's arguments or environment name. */
function planTempPaths(target: FenceTarget): string[] {
  const root = tmpdir();
  // Only agent-mux's own temp entries (random names): a plan's arguments come partly from a repository's config.
  const pattern = new RegExp(`${escapeRegExp(root)}/agent-mux-[^/\\s"',;:]+`, 'g');
  const found = new Set<string>();
  for (const text of target.planValues ?? []) {
    for (const match of text.matchAll(pattern)) {
      // Never a parent of the workspace: that would show other runs' workspaces beside it.
      if (existsSync(match[0]) && !inside(target.workspace, match[0])) found.add(match[0]);
    }
  }
  return [...found];
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
