import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideCliFence } from '../../src/cli/commands/cli-fence.ts';
import { main } from '../../src/cli/main.ts';
import { probeFence } from '../../src/core/sandbox/index.ts';
import { memoryIO } from '../support/memory-io.ts';
import { escapeCarriers } from '../support/process-alive.ts';

// Issue 32 (round 2, item 19): `agent-mux run` promised the group kill, and a process the agent
// detached from its group (setsid) outlived the run. Now the CLI runs the agent in its own PID
// namespace where bubblewrap works (--fence auto), and says plainly what it does not promise where not.
const root = new URL('../../', import.meta.url).pathname;

async function escapeThroughCli(fence: string) {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-cli-fence-'));
  const config = join(dir, 'agents.json');
  writeFileSync(
    config,
    JSON.stringify({
      adapters: { escaper: { type: 'process', binary: join(root, 'test/fixtures/bin/escape-setsid.sh') } },
    }),
  );
  const marker = randomUUID();
  const m = memoryIO(dir, { PATH: process.env.PATH, HOME: process.env.HOME, ESCAPE_MARKER: marker });
  const code = await main(['run', '--config', config, '--adapter', 'escaper', '--json', '--fence', fence, 'x'], m.io);
  await new Promise((done) => setTimeout(done, 300));
  const left = escapeCarriers(marker);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  return { code, left, stderr: m.stderr() };
}

describe('agent-mux run --fence', () => {
  it('off: the detached process outlives the run (the attack works)', async () => {
    const { code, left } = await escapeThroughCli('off');
    expect(code).toBe(0);
    expect(left.length).toBeGreaterThan(0);
  });

  it('auto (default) with bubblewrap working: nothing the agent started outlives the run', async (ctx) => {
    if (!(await probeFence({ kind: 'processes' }, tmpdir())).ok) ctx.skip();
    const { code, left, stderr } = await escapeThroughCli('auto');
    expect(code).toBe(0);
    expect(left).toEqual([]);
    expect(stderr).not.toContain('no fence');
  });

  it('auto without a working bubblewrap: runs, and says what it does not promise; on: refuses', async () => {
    const broken = async () => ({ ok: false as const, message: 'bwrap: setting up uid map: Permission denied' });
    const auto = await decideCliFence('auto', broken);
    expect(auto.fence).toBeUndefined();
    expect(auto.note).toMatch(/no fence \(bwrap: setting up uid map: Permission denied\).*can outlive the run/);
    await expect(decideCliFence('on', broken)).rejects.toThrow(
      /--fence on: the fence \(bubblewrap\) does not work here/,
    );
    await expect(decideCliFence('sometimes', broken)).rejects.toThrow(/--fence takes auto, on or off/);
    expect(await decideCliFence('off', broken)).toEqual({ fence: undefined });
  });
});
