import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAdapter } from '../../../../src/adapters/protocols/process/process-adapter.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { collectRun, processAlive } from '../../../support/collect-run.ts';
import { fixtureBin } from '../../../support/with-program.ts';

const node = process.execPath;
const workspace = () => mkdtempSync(join(tmpdir(), 'agent-mux-process-terminal-'));
/** Far longer than any of these runs may take: a run that reaches it was not ended by its terminal event. */
const RUN_TIMEOUT_MS = 60_000;

async function runHanging(args: readonly string[], extra: { terminalGraceMs?: number; graceMs?: number } = {}) {
  const cwd = workspace();
  const pidsFile = join(cwd, 'pids.json');
  const started = Date.now();
  const result = await collectRun(
    startRun({
      adapter: processAdapter('p', { binary: node, args: [fixtureBin('terminal-then-hang.mjs'), ...args] }),
      request: { prompt: 'the task', cwd, env: { PIDS_FILE: pidsFile } },
      mcp: 'off',
      timeoutMs: RUN_TIMEOUT_MS,
      ...extra,
    }),
  );
  const pids: number[] = JSON.parse(readFileSync(pidsFile, 'utf8'));
  return { ...result, elapsedMs: Date.now() - started, pids };
}

describe('process adapter: complete and failed end the run', () => {
  it('ends completed with the reported cost when the agent prints complete and hangs without reading stdin', async () => {
    const { events, end, elapsedMs, pids } = await runHanging(['complete', '--usd', '0.25', '--grandchild']);
    expect(end).toMatchObject({ reason: 'completed', output: { done: true } });
    expect(end.totals.usd).toBeCloseTo(0.25);
    expect(events.filter((e) => e.type === 'cost')).toHaveLength(1);
    expect(events.some((e) => e.type === 'error' && e.code === 'timeout')).toBe(false);
    expect(events.some((e) => e.type === 'crash')).toBe(false);
    expect(elapsedMs).toBeLessThan(10_000);
    expect(pids).toHaveLength(2);
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it('ends failed with the reported reason when the agent prints failed and hangs', async () => {
    const { end, elapsedMs, pids } = await runHanging(['failed', '--usd', '0.1'], { terminalGraceMs: 300 });
    expect(end).toMatchObject({ reason: 'failed', message: 'tests_failed: 3 tests fail' });
    expect(end.totals.usd).toBeCloseTo(0.1);
    expect(elapsedMs).toBeLessThan(10_000);
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it('SIGKILLs an agent that ignores shutdown and SIGTERM after complete, and still ends completed', async () => {
    const { end, elapsedMs, pids } = await runHanging(['complete', '--ignore-sigterm', '--grandchild'], {
      terminalGraceMs: 300,
    });
    expect(end).toMatchObject({ reason: 'completed', signal: 'SIGKILL' });
    expect(elapsedMs).toBeLessThan(10_000);
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it('sends shutdown (reason completed) to an agent that reads stdin but stays after complete', async () => {
    const cwd = workspace();
    const script = join(cwd, 'agent.mjs');
    const seen = join(cwd, 'shutdown.json');
    writeFileSync(
      script,
      `import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
process.stdout.write(JSON.stringify({ type: 'complete', output: 'ok', cost: { usd: 0.5 } }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.type === 'shutdown') {
    writeFileSync(${JSON.stringify(seen)}, line);
    process.exit(0);
  }
});
`,
    );
    const started = Date.now();
    const { end } = await collectRun(
      startRun({
        adapter: processAdapter('p', { binary: node, args: [script] }),
        request: { prompt: 'the task', cwd },
        mcp: 'off',
        timeoutMs: RUN_TIMEOUT_MS,
        terminalGraceMs: 300,
      }),
    );
    expect(end).toMatchObject({ reason: 'completed', output: 'ok', exitCode: 0 });
    expect(end.totals.usd).toBeCloseTo(0.5);
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual({ type: 'shutdown', reason: 'completed' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('leaves an agent that exits by itself after complete as before: its own exit code decides a crash', async () => {
    const cwd = workspace();
    const script = join(cwd, 'agent.mjs');
    writeFileSync(
      script,
      `process.stdout.write(JSON.stringify({ type: 'complete', output: 1 }) + '\\n');
process.stderr.write('flush failed\\n');
setTimeout(() => process.exit(4), 50);
`,
    );
    const { events, end } = await collectRun(
      startRun({
        adapter: processAdapter('p', { binary: node, args: [script] }),
        request: { prompt: 'the task', cwd },
        mcp: 'off',
        timeoutMs: RUN_TIMEOUT_MS,
      }),
    );
    expect(end).toMatchObject({ reason: 'crashed', exitCode: 4 });
    expect(events.some((e) => e.type === 'crash')).toBe(true);
  });
});
