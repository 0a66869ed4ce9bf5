import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Adapter, type AgentEvent, createBuiltinRegistry, parseConfig, startRun } from '../../src/index.ts';
import { collectRun } from '../support/collect-run.ts';
import { fixtureBin } from '../support/with-program.ts';

const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-registry-'));
const node = JSON.stringify(process.execPath);
const yaml = `
# One adapter of each configurable profile, as a user would write them.
adapters:
  repl:
    type: generic-cli
    command: ${node}
    args: [${JSON.stringify(fixtureBin('line-repl.mjs'))}]
    spawn_policy: persistent
  shout:
    type: generic-job
    command: sh
    args: [-c, "tr a-z A-Z"]
    max_runtime: 10s
  slow:
    type: generic-job
    command: sleep
    args: ["30"]
    max_runtime: 300ms
  ext:
    type: external
    command: ${node}
    args: [${JSON.stringify(fixtureBin('external-echo.mjs'))}]
    work_dir: ${JSON.stringify(cwd)}
`;

const registry = createBuiltinRegistry().loadConfig(parseConfig(yaml, 'agent-mux.yml'), 'agent-mux.yml');
const run = (adapter: Adapter, prompt: string) =>
  collectRun(startRun({ adapter, request: { prompt, cwd }, graceMs: 300 }));
const text = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');

afterAll(async () => {
  for (const id of ['repl', 'ext']) await (registry.get(id) as { dispose?: () => Promise<void> }).dispose?.();
});

describe('createBuiltinRegistry with the configurable profiles', () => {
  it('loads generic-cli, generic-job and external entries of a YAML configuration, with their capabilities', () => {
    expect(registry.ids()).toEqual(expect.arrayContaining(['demo', 'ext', 'repl', 'shout', 'slow']));
    for (const id of registry.ids())
      if (!['ext', 'repl', 'shout', 'slow'].includes(id)) expect(registry.origin(id)).toBe('built-in');
    for (const id of ['repl', 'shout', 'slow', 'ext']) expect(registry.origin(id)).toBe('config');

    const repl = registry.get('repl');
    expect(repl.launch.kind).toBe('session');
    expect(repl.displayName).toContain('generic-cli');
    expect(repl.capabilities).toMatchObject({
      execModel: 'interactive',
      sessionPersistence: 'memory',
      turnCompletion: false,
      nativeSessionIds: false,
      resume: false,
      streaming: 'text',
    });

    const shout = registry.get('shout');
    expect(shout.launch.kind).toBe('process');
    expect(shout.capabilities).toMatchObject({
      execModel: 'run-to-completion',
      sessionPersistence: 'none',
      turnCompletion: true,
      approvals: 'none',
    });

    const ext = registry.get('ext');
    expect(ext.launch.kind).toBe('session');
    expect(ext.capabilities).toMatchObject({
      execModel: 'interactive',
      turnCompletion: true,
      approvals: 'native',
      sessionPersistence: 'memory',
    });
  });

  it('runs each configured adapter', async () => {
    const repl = await run(registry.get('repl'), 'hi');
    expect(repl.end.reason).toBe('completed');
    expect(text(repl.events)).toContain('you said: hi');

    const shout = await run(registry.get('shout'), 'make this loud');
    expect(shout.end.reason).toBe('completed');
    expect(text(shout.events)).toBe('MAKE THIS LOUD\n');

    const ext = await run(registry.get('ext'), 'hello');
    expect(ext.end.reason).toBe('completed');
    expect(text(ext.events)).toContain(': hello');
  });

  it("applies a generic-job's max_runtime from the configuration", async () => {
    const started = Date.now();
    const { end } = await run(registry.get('slow'), '');
    expect(end.reason).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
