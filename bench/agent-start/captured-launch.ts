import { readdir, readFile, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { RUN_MARKER_ENV } from '../../src/action/stop-leftover-agents.ts';

/** How a process was started, as /proc tells it: what to start again to run the same program alone. */
export interface CapturedLaunch {
  pid: number;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

interface ProcInfo {
  pid: number;
  ppid: number;
  argv: string[];
  environ: Buffer;
}

async function readProc(pid: number): Promise<ProcInfo | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8'))
      .split('\0')
      .filter((a, i, all) => a !== '' || i < all.length - 1);
    return { pid, ppid, argv, environ: await readFile(`/proc/${pid}/environ`) };
  } catch {
    return undefined; // gone, or not ours to read
  }
}

function envOf(environ: Buffer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of environ.toString('utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/**
 * The agent program an Action step started: of the processes whose environment carries the step's
 * run marker (`AGENT_MUX_ACTION_RUN=<marker…>`, which agent-mux gives every agent it starts), the
 * topmost one that is not the fence (`bwrap`, which re-executes itself and then the agent). Its
 * argv, environment and cwd are exactly those agent-mux started the agent with.
 */
export async function captureAgentLaunch(markerPrefix: string): Promise<CapturedLaunch | undefined> {
  const needle = Buffer.from(`${RUN_MARKER_ENV}=${markerPrefix}`);
  const marked = new Map<number, ProcInfo>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = await readProc(Number(entry));
    if (info?.environ.includes(needle)) marked.set(info.pid, info);
  }
  const roots = [...marked.values()].filter((p) => !marked.has(p.ppid)).sort((a, b) => a.pid - b.pid);
  let agent = roots[0];
  while (agent && basename(agent.argv[0] ?? '') === 'bwrap') {
    const pid: number = agent.pid;
    agent = [...marked.values()].filter((p) => p.ppid === pid).sort((a, b) => a.pid - b.pid)[0];
  }
  if (!agent) return undefined;
  let cwd: string;
  try {
    cwd = await readlink(`/proc/${agent.pid}/cwd`);
  } catch {
    return undefined;
  }
  return { pid: agent.pid, argv: agent.argv, env: envOf(agent.environ), cwd };
}
