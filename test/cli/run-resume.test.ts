import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { type AgentEvent, agentEventSchema } from '../../src/core/events/index.ts';
import { memoryIO } from '../support/memory-io.ts';
import { fixtureBin } from '../support/with-program.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'agent-mux-cli-resume-'));
const lines = (text: string): AgentEvent[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => agentEventSchema.parse(JSON.parse(l)));

/** A config with the ACP fixture agent in one of its scenarios (`load`: it can load sessions). */
function acpConfig(scenario: string): string {
  const file = join(tmp(), 'config.json');
  const adapters = { fx: { type: 'acp', binary: process.execPath, args: [fixtureBin('acp-agent.mjs'), scenario] } };
  writeFileSync(file, JSON.stringify({ adapters }));
  return file;
}

describe('agent-mux run --resume', () => {
  it('continues the session through the adapter (ACP: session/load), the history not shown again', async () => {
    const cwd = tmp();
    const m = memoryIO(cwd);
    const args = ['run', '--config', acpConfig('load'), '--adapter', 'fx', '--json', '--resume', 'old-7', 'again'];
    expect(await main(args, m.io)).toBe(0);
    const events = lines(m.stdout());
    expect(events.find((e) => e.type === 'session_resume')).toMatchObject({ sessionId: 'old-7' });
    expect(events.some((e) => e.type === 'session_start')).toBe(false);
    expect(m.stdout()).not.toContain('earlier answer');
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'completed', sessionId: 'old-7' });
  });

  it('without --resume the same agent starts a new session', async () => {
    const m = memoryIO(tmp());
    expect(await main(['run', '--config', acpConfig('load'), '--adapter', 'fx', '--json', 'hi'], m.io)).toBe(0);
    expect(lines(m.stdout()).find((e) => e.type === 'session_start')).toMatchObject({ sessionId: 'fixture-load' });
  });

  it('an adapter that cannot resume is a usage error (exit 2), and nothing runs', async () => {
    const m = memoryIO(tmp());
    expect(await main(['run', '--adapter', 'demo', '--json', '--resume', 's-1', 'fix'], m.io)).toBe(2);
    expect(m.stderr()).toContain('demo cannot resume a session');
    expect(m.stdout()).toBe('');
  });
});
