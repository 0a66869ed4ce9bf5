import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { CliIO } from '../../src/cli/cli-io.ts';

/** A CliIO whose streams are in memory; `text()` returns what was written. */
export function memoryIO(cwd: string, env: Record<string, string | undefined> = process.env) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const signals = new EventEmitter();
  const io: CliIO = { stdout, stderr, stdin: new PassThrough(), env, cwd, signals };
  return {
    io,
    signals,
    stdout: () => Buffer.concat(out).toString('utf8'),
    stderr: () => Buffer.concat(err).toString('utf8'),
  };
}
