import { describe, expect, it, vi } from 'vitest';
import { serveCommand, serveUsage } from '../../src/cli/commands/serve-command.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { memoryIO } from '../support/memory-io.ts';

describe('serveCommand', () => {
  it('serves until SIGINT, then closes and exits 0', async () => {
    const { io, signals, stdout } = memoryIO(process.cwd(), { SERVE_TOKEN: 'secret-token' });
    const exit = serveCommand(['--adapter', 'demo', '--port', '0', '--token-env', 'SERVE_TOKEN'], io);
    await vi.waitFor(() => expect(stdout()).toMatch(/http:\/\/127\.0\.0\.1:\d+/));
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout())?.[1] as string;
    const denied = await fetch(`${url}/v1/sessions`, { method: 'POST', body: '{}' });
    expect(denied.status).toBe(401);
    const bad = await fetch(`${url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer secret-token', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(400);
    signals.emit('SIGINT', 'SIGINT');
    expect(await exit).toBe(0);
    await expect(fetch(`${url}/v1/sessions`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('requires an auth choice and a set token variable', async () => {
    const { io } = memoryIO(process.cwd(), {});
    await expect(serveCommand(['--adapter', 'demo', '--port', '0'], io)).rejects.toSatisfy(UsageError.isInstance);
    await expect(serveCommand(['--adapter', 'demo', '--port', '0', '--token-env', 'MISSING'], io)).rejects.toThrow(
      /MISSING/,
    );
    await expect(
      serveCommand(['--adapter', 'demo', '--port', '0', '--cert', 'a.pem', '--insecure-no-auth'], io),
    ).rejects.toSatisfy(UsageError.isInstance);
  });

  it('prints its usage with --help', async () => {
    const { io, stdout } = memoryIO(process.cwd(), {});
    expect(await serveCommand(['--help'], io)).toBe(0);
    expect(stdout()).toBe(`${serveUsage}\n`);
  });
});
