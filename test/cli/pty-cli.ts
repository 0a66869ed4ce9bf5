import { join } from 'node:path';

type NodePty = typeof import('node-pty');

const root = new URL('../../', import.meta.url).pathname;

/** node-pty (an optional dependency), or undefined where it is not installed. */
export async function loadPty(): Promise<NodePty | undefined> {
  try {
    const loaded = (await import('node-pty')) as NodePty & { default?: NodePty };
    return loaded.default ?? loaded;
  } catch {
    return undefined;
  }
}

export interface PtyCli {
  /** Everything the terminal showed so far, VT sequences stripped. */
  screen(): string;
  write(data: string): void;
  /** Resolves once `text` is on the screen; rejects after `timeoutMs`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** The exit code, once the program has ended and its last output has been read. */
  exited: Promise<number>;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: VT sequences start with ESC
const vt = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007|\r/g;

/** Runs the real CLI (`node src/cli/index.ts …`) in a pseudo-terminal, as a person would. */
export function spawnCli(pty: NodePty, args: string[], options: { cwd: string }): PtyCli {
  const term = pty.spawn(process.execPath, [join(root, 'src/cli/index.ts'), ...args], {
    cwd: options.cwd,
    cols: 160,
    rows: 50,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let raw = '';
  const waiters = new Set<() => void>();
  term.onData((data) => {
    raw += data;
    for (const check of waiters) check();
  });
  const screen = () => raw.replace(vt, '');
  return {
    screen,
    write: (data) => term.write(data),
    waitFor: (text, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`"${text}" did not appear within ${timeoutMs} ms; the screen:\n${screen()}`));
        }, timeoutMs);
        const check = () => {
          if (!screen().includes(text)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    // node-pty may report the exit before the last output is read: give it a moment.
    exited: new Promise<number>((resolve) => term.onExit(({ exitCode }) => setTimeout(() => resolve(exitCode), 200))),
  };
}
