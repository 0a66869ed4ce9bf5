import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openFenceNetwork } from '../../../src/core/sandbox/fence-network.ts';

// A network namespace whose loopback nobody set up yet: what bwrap's namespace is before its
// own loopback setup (slirp4netns, which brings `lo` up, must not start before that is done).
let holder: ChildProcess | undefined;
afterEach(() => {
  holder?.kill('SIGKILL');
  holder = undefined;
});

function slirpOf(pid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline[0]?.endsWith('slirp4netns') && cmdline.includes(String(pid))) return true;
    } catch {
      // Gone meanwhile.
    }
  }
  return false;
}

describe('openFenceNetwork.attach', () => {
  it('waits for the namespace’s own loopback before starting slirp4netns, and says so when it never comes', async () => {
    holder = spawn('unshare', ['--user', '--map-root-user', '--net', '--fork', 'sleep', '30'], { stdio: 'ignore' });
    const pid = holder.pid ?? 0;
    const network = await openFenceNetwork({ ports: [], timeoutMs: 600 });
    try {
      await expect(network.attach(pid)).rejects.toThrow('did not set up its loopback within 600 ms');
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
      expect(children.some(slirpOf)).toBe(false);
    } finally {
      await network.close();
    }
  });
});
