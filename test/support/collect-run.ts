import { readFileSync } from 'node:fs';
import type { AgentEvent } from '../../src/core/events/index.ts';
import type { RunEnd, RunHandle } from '../../src/core/run/run-options.ts';

/** Reads every event of a run through its async iterator and returns them with the end. */
export async function collectRun(handle: RunHandle): Promise<{ events: AgentEvent[]; end: RunEnd }> {
  const events: AgentEvent[] = [];
  for await (const event of handle.events) events.push(event);
  return { events, end: await handle.result };
}

/** True while a process exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
