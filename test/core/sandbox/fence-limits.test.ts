import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FenceOptions, fenceCommand, probeFence } from '../../../src/core/sandbox/index.ts';

// Issue 32, items 6 and 11: started as root (an app or a self-hosted runner running as root), the
// fenced agent keeps no capability; the fence's /tmp (memory) has a size.

const fenceWorks = (await probeFence({ kind: 'filesystem' }, tmpdir())).ok;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function inFence(fence: FenceOptions, script: string): string {
  const ws = mkdtempSync(join(tmpdir(), 'agent-mux-limits-'));
  dirs.push(ws);
  const fenced = fenceCommand(fence, {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: ws,
    workspace: ws,
    env: { PATH: '/usr/bin:/bin' },
  });
  return execFileSync(fenced.command, fenced.args, { env: fenced.env, encoding: 'utf8' });
}

describe.each([{ kind: 'filesystem' as const }, { kind: 'processes' as const, privateTmp: true }])(
  'the $kind fence',
  (base) => {
    // The bounding set stays, but with `no_new_privs` (bubblewrap sets it) nothing can be regained.
    it.skipIf(!fenceWorks)('leaves the agent no capability, even when agent-mux runs as root', () => {
      const caps = inFence(base, 'grep -E "^Cap(Eff|Prm|Inh|Amb)" /proc/self/status');
      for (const line of caps.trim().split('\n')) expect(line).toMatch(/\t0{16}$/);
    });

    it.skipIf(!fenceWorks)('bounds its /tmp: writing past the size fails with ENOSPC', () => {
      const out = inFence(
        { ...base, tmpBytes: 1024 * 1024 },
        'head -c 2000000 /dev/zero > /tmp/fill 2>&1; echo "rc=$?"; df -k /tmp | tail -1',
      );
      expect(out).toContain('rc=1');
      expect(out).toMatch(/tmpfs\s+1024\s/);
    });
  },
);

describe('the processes fence with its own /tmp', () => {
  it.skipIf(!fenceWorks)(
    'still runs a program that lies under /tmp (read-only), and keeps what is hidden in its tree hidden',
    () => {
      const tree = mkdtempSync(join(tmpdir(), 'agent-mux-program-'));
      dirs.push(tree);
      mkdirSync(join(tree, 'secret'));
      writeFileSync(join(tree, 'secret', 'env'), 'TOKEN=x\n');
      writeFileSync(
        join(tree, 'run.sh'),
        '#!/bin/sh\necho ran; ls "$1" 2>&1 | wc -l; touch "$0.mark" 2>&1 || echo read-only\n',
        {
          mode: 0o755,
        },
      );
      const ws = mkdtempSync(join(tmpdir(), 'agent-mux-limits-ws-'));
      dirs.push(ws);
      const fenced = fenceCommand(
        { kind: 'processes', privateTmp: true, hidden: [join(tree, 'secret')] },
        {
          command: join(tree, 'run.sh'),
          args: [join(tree, 'secret')],
          cwd: ws,
          workspace: ws,
          env: { PATH: '/usr/bin:/bin' },
        },
      );
      const out = execFileSync(fenced.command, fenced.args, { env: fenced.env, encoding: 'utf8' });
      expect(out).toMatch(/^ran\n0\n(.*Read-only file system\n)?read-only\n$/);
    },
  );
});
