import { readdirSync, readFileSync } from 'node:fs';
/** Whether a process with this pid exists (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Pids of live (not zombie) processes whose environment carries `ESCAPE_MARKER=<marker>` (read from /proc). */
export function escapeCarriers(marker: string): number[] {
  const needle = Buffer.from(`ESCAPE_MARKER=${marker}`);
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (/\) Z /.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}
