/**
 * A PostgreSQL server of a test's own: `initdb` in a temporary directory and `pg_ctl` on a free
 * port of 127.0.0.1, so that a test may restart or stop it without touching the machine's server
 * (issue 33.13). PostgreSQL refuses to run as root: as root, it runs as the `postgres` user.
 */
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { RUNUSER } from './runuser.ts';

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string;
  /** Restarts the server (fast shutdown: every connection is ended); resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

/** The directory of PostgreSQL's programs (Debian: the newest `/usr/lib/postgresql/N/bin`), if installed. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function freePort(): Promise<number> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a fresh server; undefined where PostgreSQL's programs are not installed. */
export async function startPrivatePostgres(): Promise<PrivatePostgres | undefined> {
  const bin = postgresBinDir();
  if (!bin) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await execa('id', ['-u', 'postgres']);
    const { stdout: gid } = await execa('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout), Number(gid));
    chmodSync(dir, 0o700);
  }
  const sh = (program: string, args: string[]) =>
    asRoot
      ? execa(RUNUSER, ['-u', 'postgres', '--', join(bin, program), ...args], { cwd: dir })
      : execa(join(bin, program), args, { cwd: dir });
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const ctl = (...args: string[]) => sh('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', ...args]);
  try {
    await sh('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
    await ctl('start');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart() {
      await ctl('-m', 'fast', 'restart');
    },
    async stop() {
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
