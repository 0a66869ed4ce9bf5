import { readFileSync } from 'node:fs';

/**
 * CPU seconds a process used so far, its finished children included (`utime + stime + cutime +
 * cstime` of `/proc/<pid>/stat`); undefined where there is no `/proc` or the process is gone.
 */
export function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / 100;
  } catch {
    return undefined;
  }
}
