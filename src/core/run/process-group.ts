import { readdirSync, readFileSync } from 'node:fs';

/** Process groups this process started and has not yet seen die. Killed on our own exit. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
  });
}

/** Remembers a group so that it is killed if this process exits first. */
export function trackGroup(pgid: number): void {
  installExitHook();
  liveGroups.add(pgid);
}

export function untrackGroup(pgid: number): void {
  liveGroups.delete(pgid);
}

/** Sends a signal to every process of the group. Returns false when the group has no process left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: a member changed its credentials; nothing more we can do from here.
    return false;
  }
}

/**
 * Live (non-zombie) members of a group, read from /proc. Zombies do not count: where PID 1
 * does not reap orphans (some containers), a killed grandchild stays a zombie for ever.
 * Returns undefined where /proc is not available.
 */
export function groupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone between readdir and read
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(entry));
  }
  return members;
}

/** True while any process of the group is alive (zombies excepted where /proc tells). */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  const members = groupMembers(pgid);
  return members === undefined || members.length > 0;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Ends a whole group: SIGTERM, up to `graceMs` for it to go, then SIGKILL.
 * Resolves once no member is left (or after SIGKILL plus a short wait).
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<'empty' | 'terminated' | 'killed'> {
  if (!groupAlive(pgid) || !signalGroup(pgid, 'SIGTERM')) {
    untrackGroup(pgid);
    return 'empty';
  }
  // A group paused (SIGSTOP: a budget waiting to be raised) handles its SIGTERM only once continued.
  signalGroup(pgid, 'SIGCONT');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(Math.min(25, Math.max(1, deadline - Date.now())));
    if (!groupAlive(pgid)) {
      untrackGroup(pgid);
      return 'terminated';
    }
  }
  signalGroup(pgid, 'SIGKILL');
  for (let i = 0; i < 40 && groupAlive(pgid); i++) await sleep(25);
  untrackGroup(pgid);
  return 'killed';
}
