import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../src/core/adapter/index.ts';
import { type AgentEvent, agentEventSchema } from '../../src/core/events/index.ts';
import type { RunOptions } from '../../src/core/run/run-options.ts';
import { startRun } from '../../src/core/run/start-run.ts';
import { collectRun, processAlive } from '../support/collect-run.ts';
import { fixtureBin, withProgram } from '../support/with-program.ts';

export interface ContractSubject {
  /** The adapter under test, as its factory builds it. */
  adapter: Adapter;
  /** A recorded native stream of a normal run (text and at least one tool call, where the agent has tools). */
  stream: string;
  /** A native record that would put `text` into an event's string field. */
  recordWithText(text: string): string;
  /** Event types the recorded stream must produce. */
  expectTypes: readonly AgentEvent['type'][];
  /**
   * `json-lines` (default): garbage must surface as `malformed_record` errors and change nothing
   * else. `text`: every line is output, so garbage shows up as text; the run must still complete
   * well-formed, with all the clean text still there.
   */
  protocol?: 'json-lines' | 'text';
  /** Options every run of this subject needs (tools, approvals, …). */
  runOptions?: Partial<RunOptions>;
  /**
   * The recorded stream ends with a terminal record (the Process protocol's `complete`, a CLI's result record
   * that closes its only turn): the run must end on it even when the program stays alive.
   */
  terminal?: boolean;
}

const node = process.execPath;

/** Invariants every event stream must keep, whatever the adapter. */
export function expectWellFormedStream(events: AgentEvent[], adapterId: string): void {
  expect(events.length).toBeGreaterThan(0);
  const ends = events.filter((e) => e.type === 'run_end');
  expect(ends).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('run_end');
  const runId = events[0]?.runId;
  let last = 0;
  const started = new Set<string>();
  const ready = new Set<string>();
  let openMessages = 0;
  for (const event of events) {
    expect(() => agentEventSchema.parse(event)).not.toThrow();
    expect(event.runId).toBe(runId);
    expect(event.agent).toBe(adapterId);
    expect(event.timestamp).toBeGreaterThanOrEqual(last);
    last = event.timestamp;
    if (event.type === 'tool_call_start') started.add(event.toolCallId);
    if (event.type === 'tool_input_delta') expect(started.has(event.toolCallId)).toBe(true);
    if (event.type === 'tool_call_ready') {
      expect(started.has(event.toolCallId)).toBe(true);
      ready.add(event.toolCallId);
    }
    if (event.type === 'tool_result') expect(started.has(event.toolCallId)).toBe(true);
    if (event.type === 'message_start') openMessages++;
    if (event.type === 'message_stop') openMessages--;
    expect(openMessages).toBeGreaterThanOrEqual(0);
  }
  for (const id of started) expect(ready.has(id)).toBe(true);
  expect(openMessages).toBe(0);
}

/**
 * Everything but logs, errors, the end and the text stream: tool calls, costs, sessions, results.
 * Durations are compared as they are: the runs read a fixed clock, so a translator that reads the
 * wall clock itself fails here.
 */
const structure = (events: AgentEvent[]) =>
  events
    .filter(
      (e) => !['error', 'log', 'debug', 'run_end', 'text_delta', 'message_start', 'message_stop'].includes(e.type),
    )
    .map(({ timestamp: _t, runId: _r, raw: _raw, ...rest }) => rest);

/** The clock every contract run gives its translator: the same events whatever the wall clock says. */
const fixedClock = (): number => 0;

/**
 * The shared contract every process adapter passes: stream shape, abort, crash, timeouts,
 * malformed input, secrets, long lines. Fixture programs stand in for the real CLI.
 */
export function describeAdapterContract(name: string, subject: ContractSubject): void {
  const { adapter } = subject;
  const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-contract-'));
  // Adapters may keep state under HOME (sessions, config overlays): never the real one in tests.
  const home = mkdtempSync(join(tmpdir(), 'agent-mux-contract-home-'));
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
  };
  const run = (program: string, args: readonly string[], options: Partial<RunOptions> = {}) =>
    collectRun(
      startRun({
        adapter: withProgram(adapter, node, [program, ...args]),
        request: { prompt: 'contract test', cwd },
        graceMs: 500,
        env,
        clock: fixedClock,
        ...subject.runOptions,
        ...options,
      }),
    );

  describe(`adapter contract: ${name}`, () => {
    it('translates a recorded stream into a well-formed event stream ending in one run_end', async () => {
      const { events, end } = await run(fixtureBin('replay-stream.mjs'), [subject.stream]);
      expectWellFormedStream(events, adapter.id);
      expect(end.reason).toBe('completed');
      const types = new Set(events.map((e) => e.type));
      for (const type of subject.expectTypes) expect(types, `missing ${type}`).toContain(type);
    });

    it('survives binary garbage, broken JSON and plain text between records', async () => {
      const clean = await run(fixtureBin('replay-stream.mjs'), [subject.stream]);
      const dirty = await run(fixtureBin('replay-stream.mjs'), [subject.stream, '--garbage']);
      expectWellFormedStream(dirty.events, adapter.id);
      expect(dirty.end.reason).toBe('completed');
      // Plain-text lines where JSON was expected may become text events (CLI translators) or logs
      // (the Process protocol): compare everything else exactly, and the text by containment.
      const text = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('');
      const dirtyText = text(dirty.events);
      for (const line of text(clean.events).split('\n').filter(Boolean)) expect(dirtyText).toContain(line);
      if (subject.protocol !== 'text') {
        expect(dirty.events.some((e) => e.type === 'error' && e.code === 'malformed_record')).toBe(true);
        expect(structure(dirty.events)).toEqual(structure(clean.events));
      }
    });

    if (subject.terminal) {
      it('terminal event ends the run though the process stays alive', async () => {
        const clean = await run(fixtureBin('replay-stream.mjs'), [subject.stream]);
        const pidsFile = join(cwd, `pids-terminal-${Date.now()}.json`);
        const started = Date.now();
        const hung = await run(fixtureBin('replay-stream.mjs'), [subject.stream, '--hang'], {
          request: { prompt: 'contract test', cwd, env: { PIDS_FILE: pidsFile } },
          timeoutMs: 60_000,
          terminalGraceMs: 300,
        });
        expectWellFormedStream(hung.events, adapter.id);
        // Ended by the terminal record, not by the run's timeout: the same end as when the program exits.
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(hung.end.reason).toBe(clean.end.reason);
        expect(hung.end.output).toEqual(clean.end.output);
        expect(hung.end.totals).toEqual(clean.end.totals);
        expect(structure(hung.events)).toEqual(structure(clean.events));
        const pids: number[] = JSON.parse(readFileSync(pidsFile, 'utf8'));
        expect(pids.filter(processAlive)).toEqual([]);
      });
    }

    it('turns a non-zero exit into a crash with the stderr tail', async () => {
      const { events, end } = await run(fixtureBin('crash.mjs'), ['3']);
      expectWellFormedStream(events, adapter.id);
      const crash = events.find((e) => e.type === 'crash');
      expect(crash).toMatchObject({ exitCode: 3, signal: null });
      expect(crash?.type === 'crash' && crash.stderr).toContain('fatal: the model refused the request');
      expect(end).toMatchObject({ reason: 'crashed', exitCode: 3 });
    });

    it('abort kills the whole process group, grandchildren that ignore SIGTERM included', async () => {
      const pidsFile = join(cwd, `pids-${Date.now()}.json`);
      const handle = startRun({
        adapter: withProgram(adapter, node, [fixtureBin('fork-grandchildren.mjs')]),
        request: { prompt: 'x', cwd, env: { PIDS_FILE: pidsFile } },
        env,
        graceMs: 300,
        ...subject.runOptions,
      });
      const collected = collectRun(handle);
      let pids: number[] = [];
      for (let i = 0; i < 200 && pids.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        try {
          pids = JSON.parse(readFileSync(pidsFile, 'utf8'));
        } catch {}
      }
      expect(pids).toHaveLength(3);
      expect(pids.every(processAlive)).toBe(true);
      handle.abort('test abort');
      const { events, end } = await collected;
      expectWellFormedStream(events, adapter.id);
      expect(end).toMatchObject({ reason: 'aborted', message: 'test abort' });
      expect(pids.filter(processAlive)).toEqual([]);
    });

    it('leaves no grandchild behind when the program exits on its own', async () => {
      const pidsFile = join(cwd, `pids-exit-${Date.now()}.json`);
      const { end } = await run(fixtureBin('fork-grandchildren.mjs'), ['--exit'], {
        request: { prompt: 'x', cwd, env: { PIDS_FILE: pidsFile } },
      });
      expect(end.exitCode).toBe(0);
      const pids: number[] = JSON.parse(readFileSync(pidsFile, 'utf8'));
      expect(pids.filter(processAlive)).toEqual([]);
    });

    it('SIGKILLs a program that ignores SIGTERM after the grace window', async () => {
      // Aborted once the program says it started (its SIGTERM handler is in place), not after a fixed
      // delay: on a loaded machine Node's start-up can outlast one, and SIGTERM then still kills it.
      let started = false;
      const handle = startRun({
        adapter: withProgram(adapter, node, [fixtureBin('ignore-sigterm.mjs')]),
        request: { prompt: 'x', cwd },
        env,
        graceMs: 200,
        ...subject.runOptions,
        onNativeOutput: (stream, chunk) => {
          if (started || stream !== 'stdout' || !Buffer.from(chunk).toString().includes('"started"')) return;
          started = true;
          setImmediate(() => handle.abort());
        },
      });
      const collected = collectRun(handle);
      const { events, end } = await collected;
      expectWellFormedStream(events, adapter.id);
      expect(end.reason).toBe('aborted');
      expect(end.signal).toBe('SIGKILL');
    });

    it('holds the total timeout', async () => {
      const started = Date.now();
      const { events, end } = await run(fixtureBin('chatty-hang.mjs'), [], {
        timeoutMs: 400,
        inactivityTimeoutMs: 5000,
      });
      expectWellFormedStream(events, adapter.id);
      expect(end.reason).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(events.some((e) => e.type === 'error' && e.code === 'timeout')).toBe(true);
    });

    it('holds the inactivity timeout', async () => {
      const { events, end } = await run(fixtureBin('hang.mjs'), [], { inactivityTimeoutMs: 300, timeoutMs: 20_000 });
      expectWellFormedStream(events, adapter.id);
      expect(end.reason).toBe('inactivity');
    });

    it('redacts secret env values and token-like strings from every event', async () => {
      const secret = `s3cr3t-${'v'.repeat(12)}`;
      const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
      const file = join(cwd, `secret-${Date.now()}.jsonl`);
      writeFileSync(
        file,
        `${subject.recordWithText(`leak ${secret}`)}\n${subject.recordWithText(`token ${token}`)}\n${readFileSync(subject.stream, 'utf8')}`,
      );
      const { events } = await run(fixtureBin('replay-stream.mjs'), [file, '--stderr', `stderr ${secret}`], {
        env: { ...env, CONTRACT_SECRET: secret },
        secretEnv: ['CONTRACT_SECRET'],
        debug: true,
      });
      const text = JSON.stringify(events);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(token);
      expect(text).toContain('***');
    });

    it('passes a 10 MiB line through intact', async () => {
      const { events, end } = await run(fixtureBin('big-line.mjs'), [String(10 * 1024 * 1024)]);
      expectWellFormedStream(events, adapter.id);
      expect(end.reason).not.toBe('crashed');
      expect(events.some((e) => e.type === 'error' && e.code === 'line_too_long')).toBe(false);
    });

    it('reports a program that is not installed as a crash that says how to install it', async () => {
      const { events, end } = await collectRun(
        startRun({
          adapter: withProgram(adapter, '/nonexistent/agent-binary', []),
          request: { prompt: 'x', cwd },
          env,
          ...subject.runOptions,
        }),
      );
      expectWellFormedStream(events, adapter.id);
      expect(end.reason).toBe('crashed');
      const crash = events.find((e) => e.type === 'crash');
      expect(crash?.type === 'crash' && crash.stderr).toContain(
        '/nonexistent/agent-binary is not installed or not on PATH',
      );
      const install = adapter.program?.install[0]?.command;
      if (install) expect(crash?.type === 'crash' && crash.stderr).toContain(`install it with: ${install}`);
    });
  });
}
