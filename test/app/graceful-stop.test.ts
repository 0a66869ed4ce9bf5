import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installGracefulStop } from '../../src/app/graceful-stop.ts';

function setUp(stop: () => Promise<void>, graceMs = 1_000) {
  const target = new EventEmitter();
  const exits: number[] = [];
  const lines: string[] = [];
  let exited!: () => void;
  const exitedOnce = new Promise<void>((resolve) => {
    exited = resolve;
  });
  const uninstall = installGracefulStop({
    stop,
    log: (line) => lines.push(line),
    graceMs,
    target,
    exit: (code) => {
      exits.push(code);
      exited();
    },
  });
  return { target, exits, lines, exitedOnce, uninstall };
}

describe('installGracefulStop', () => {
  it('stops the app on SIGTERM, then exits with status 0', async () => {
    let stopped = 0;
    const s = setUp(async () => {
      stopped++;
    });
    s.target.emit('SIGTERM', 'SIGTERM');
    await s.exitedOnce;
    expect(stopped).toBe(1);
    expect(s.exits).toEqual([0]);
    expect(s.lines[0]).toContain('SIGTERM received');
  });

  it('exits with status 1 when the stop outlasts the grace, and at once on a second signal', async () => {
    const s = setUp(() => new Promise<void>(() => {}), 50);
    s.target.emit('SIGINT', 'SIGINT');
    s.target.emit('SIGINT', 'SIGINT');
    expect(s.exits).toEqual([1]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(s.exits).toEqual([1, 1]);
    expect(s.lines.at(-1)).toContain('did not finish within 50 ms');
  });

  it('exits with status 1 when the stop fails', async () => {
    const s = setUp(() => Promise.reject(new Error('store gone')));
    s.target.emit('SIGTERM', 'SIGTERM');
    await s.exitedOnce;
    expect(s.exits).toEqual([1]);
    expect(s.lines.at(-1)).toContain('store gone');
  });

  it("removes a stop-signal handler added later (probot run's SIGINT handler exits at once)", async () => {
    const s = setUp(async () => {});
    let probotHandlerRan = false;
    s.target.on('SIGINT', () => {
      probotHandlerRan = true;
    });
    await Promise.resolve();
    expect(s.target.listenerCount('SIGINT')).toBe(1);
    s.target.emit('SIGINT', 'SIGINT');
    await s.exitedOnce;
    expect(probotHandlerRan).toBe(false);
    s.uninstall();
    expect(s.target.listenerCount('SIGINT')).toBe(0);
    expect(s.target.listenerCount('SIGTERM')).toBe(0);
  });
});
