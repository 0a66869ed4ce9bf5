/**
 * A tiny Node program that runs the job as its child and kills the job's process group after a deadline.
 * It stays the group leader (the core starts it in a new group), forwards SIGTERM/SIGINT/SIGHUP to the job,
 * exits as the job did, and reports on stderr, as `<marker>:timeout` or `<marker>:spawn_failed:<why>`,
 * what only it knows. CommonJS for `node -e`; it contains no `$` and no `{{`, so the core's argument
 * templates leave it alone.
 */
const SCRIPT = `'use strict';
const { spawn } = require('node:child_process');
const [ms, marker, grace, command, ...args] = process.argv.slice(1);
const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];
let expired = false;
const child = spawn(command, args, { stdio: 'inherit' });
const forward = (signal) => {
  try { child.kill(signal); } catch {}
};
for (const signal of signals) process.on(signal, () => forward(signal));
const killGroup = (signal) => {
  try { process.kill(-process.pid, signal); } catch { forward(signal); }
};
const timer = setTimeout(() => {
  expired = true;
  process.stderr.write(marker + ':timeout\\n', () => {
    killGroup('SIGTERM');
    setTimeout(() => killGroup('SIGKILL'), Number(grace));
  });
}, Number(ms));
child.on('error', (error) => {
  clearTimeout(timer);
  process.stderr.write(marker + ':spawn_failed:' + error.message + '\\n', () => process.exit(127));
});
child.on('exit', (code, signal) => {
  clearTimeout(timer);
  if (expired) process.exit(124);
  if (signal) {
    for (const s of signals) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
`;

export interface DeadlineWrapperOptions {
  command: string;
  args: readonly string[];
  maxRuntimeMs: number;
  /** Prefix of the wrapper's own stderr lines; unguessable, so that the job cannot forge them. */
  marker: string;
  /** SIGTERM → SIGKILL window at the deadline. */
  graceMs: number;
  /** The Node binary. Default: this process's. */
  node?: string;
}

/** The command and arguments that run `command args…` under the deadline wrapper. */
export function deadlineWrapper(options: DeadlineWrapperOptions): { command: string; args: string[] } {
  return {
    command: options.node ?? process.execPath,
    args: [
      '-e',
      SCRIPT,
      '--',
      String(Math.max(0, Math.round(options.maxRuntimeMs))),
      options.marker,
      String(options.graceMs),
      options.command,
      ...options.args,
    ],
  };
}
