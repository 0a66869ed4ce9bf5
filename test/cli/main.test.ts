import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { type AgentEvent, agentEventSchema } from '../../src/core/events/index.ts';
import { memoryIO } from '../support/memory-io.ts';

const root = new URL('../../', import.meta.url).pathname;
const tmp = () => mkdtempSync(join(tmpdir(), 'agent-mux-cli-'));
const lines = (text: string): AgentEvent[] =>
  text
    .trim()
    .split('\n')
    .map((l) => agentEventSchema.parse(JSON.parse(l)));

describe('agent-mux run', () => {
  it('runs the demo with --json: one valid event per line, exit 0', async () => {
    const cwd = tmp();
    const m = memoryIO(root);
    const code = await main(
      ['run', '--adapter', 'demo', '--json', '--approve', 'all', '--cwd', cwd, 'fix the typo'],
      m.io,
    );
    expect(code).toBe(0);
    const events = lines(m.stdout());
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'completed' });
    expect(events.filter((e) => e.type === 'run_end')).toHaveLength(1);
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toContain('This project shows');
  });

  it('with approvals denied the demo leaves the file alone and still completes its turn', async () => {
    const cwd = tmp();
    const m = memoryIO(root);
    const code = await main(['run', '--adapter', 'demo', '--json', '--approve', 'none', '--cwd', cwd, 'fix'], m.io);
    expect(code).toBe(0);
    const denied = lines(m.stdout()).find((e) => e.type === 'approval_denied');
    expect(denied).toBeDefined();
    // Asked for (--approve none): no hint to allow them.
    expect(JSON.stringify(denied)).not.toContain('--approve all');
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toContain('projcet');
  });

  it('stdin not a terminal and no --approve: approvals are denied and the run says so, and how to allow them', async () => {
    const cwd = tmp();
    const m = memoryIO(root);
    expect(m.io.stdin.isTTY).toBeUndefined();
    expect(await main(['run', '--adapter', 'demo', '--cwd', cwd, 'fix the typo'], m.io)).toBe(0);
    expect(m.stdout()).toContain(
      'denied: there is no terminal to ask at (standard input or standard error is not a terminal); pass --approve all to allow every tool, or run it at a terminal',
    );
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toContain('projcet');
  });

  it('shows a readable view without --json', async () => {
    const m = memoryIO(root);
    const code = await main(['run', '--adapter', 'demo', '--approve', 'all', '--cwd', tmp(), 'fix the typo'], m.io);
    expect(code).toBe(0);
    const out = m.stdout();
    expect(out).toContain('⚙ write_file');
    expect(out).toContain('approved (once)');
    expect(out).toMatch(/✔ completed · \d+\.\d s · 1380 tokens · USD 0\.0042/);
  });

  it('maps the run end to the exit code: crash 1, timeout 124', async () => {
    const config = join(tmp(), 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        adapters: {
          crasher: { type: 'process', binary: process.execPath, args: [join(root, 'test/fixtures/bin/crash.mjs')] },
          hanger: { type: 'process', binary: process.execPath, args: [join(root, 'test/fixtures/bin/hang.mjs')] },
        },
      }),
    );
    const crash = memoryIO(root);
    expect(await main(['run', '--config', config, '--adapter', 'crasher', '--json', 'x'], crash.io)).toBe(1);
    expect(lines(crash.stdout()).some((e) => e.type === 'crash')).toBe(true);
    const hang = memoryIO(root);
    expect(
      await main(['run', '--config', config, '--adapter', 'hanger', '--json', '--timeout', '0.3', 'x'], hang.io),
    ).toBe(124);
  });

  it('stops the agent on SIGINT and exits 130', async () => {
    const config = join(tmp(), 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        adapters: {
          hanger: { type: 'process', binary: process.execPath, args: [join(root, 'test/fixtures/bin/hang.mjs')] },
        },
      }),
    );
    const m = memoryIO(root);
    const running = main(['run', '--config', config, '--adapter', 'hanger', '--json', 'x'], m.io);
    setTimeout(() => m.signals.emit('SIGINT', 'SIGINT'), 300);
    expect(await running).toBe(130);
    expect(lines(m.stdout()).at(-1)).toMatchObject({ type: 'run_end', reason: 'aborted' });
  });

  it('rejects invalid configuration naming the field and the file, exit 2', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'config.json'),
      '{\n  "adapters": {\n    "pi": {\n      "type": "http",\n      "baseUrl": "gpu-box:7001",\n      "auth": { "type": "none" }\n    }\n  }\n}\n',
    );
    const m = memoryIO(dir);
    expect(await main(['run', '--config', 'config.json', '--adapter', 'pi', 'x'], m.io)).toBe(2);
    expect(m.stderr()).toContain('adapters.pi.baseUrl: expected a URL');
    expect(m.stderr()).toContain('(config.json:5)');
  });

  it('rejects bad usage with exit 2: unknown adapter, unknown flag, missing prompt', async () => {
    for (const argv of [
      ['run', '--adapter', 'nope', 'x'],
      ['run', '--adapter', 'demo', '--frobnicate', 'x'],
      ['run', '--adapter', 'demo'],
      ['bogus'],
    ]) {
      const m = memoryIO(root);
      expect(await main(argv, m.io), argv.join(' ')).toBe(2);
      expect(m.stderr().length).toBeGreaterThan(0);
    }
  });
});

describe('agent-mux replay', () => {
  it('translates a recorded Process stream into normalized JSON lines ending in run_end', async () => {
    const ok = memoryIO(root);
    expect(
      await main(
        [
          'replay',
          '--adapter',
          'openclaw',
          '--file',
          'test/fixtures/streams/process/basic.jsonl',
          '--config',
          'test/fixtures/config/process-adapters.json',
        ],
        ok.io,
      ),
    ).toBe(0);
    const events = lines(ok.stdout());
    expect(events.map((e) => e.type)).toEqual([
      'progress',
      'tool_call_start',
      'tool_call_ready',
      'progress',
      'cost',
      'comment',
      'tool_call_start',
      'tool_call_ready',
      'cost',
      'run_end',
    ]);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'run_end', reason: 'completed', output: { done: true } });
    // Cumulative costs: the run's total is the last report, priced by model, plus the extras verbatim.
    expect(end?.type === 'run_end' && end.totals).toMatchObject({ inputTokens: 15200, outputTokens: 3100 });
    expect(end?.type === 'run_end' && end.totals.usd).toBeGreaterThan(0.12);
  });

  it('is the same as the built bundle prints (node dist/cli/index.js)', async () => {
    const args = [
      'replay',
      '--adapter',
      'openclaw',
      '--file',
      'test/fixtures/streams/process/basic.jsonl',
      '--config',
      'test/fixtures/config/process-adapters.json',
    ];
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), ...args], {
      cwd: root,
    });
    const m = memoryIO(root);
    await main(args, m.io);
    const strip = (events: AgentEvent[]) =>
      events.map(({ runId: _r, timestamp: _t, ...e }) => ('durationMs' in e ? { ...e, durationMs: 0 } : e));
    expect(strip(lines(stdout))).toEqual(strip(lines(m.stdout())));
  });
});

describe('agent-mux adapters', () => {
  it('lists adapters with capabilities and program status as JSON', async () => {
    const m = memoryIO(root);
    expect(await main(['adapters', '--json', '--config', 'examples/process-agent.json'], m.io)).toBe(0);
    const rows = JSON.parse(m.stdout()) as { id: string; origin: string; capabilities: { execModel: string } }[];
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(['demo', 'reference-agent']));
    expect(rows.find((r) => r.id === 'reference-agent')?.origin).toBe('config');
  });
});

describe('messages a first day meets (issue 33.17)', () => {
  it('an adapter id one letter off: did you mean, exit 2', async () => {
    const m = memoryIO(root);
    expect(await main(['run', '--adapter', 'claud', 'x'], m.io)).toBe(2);
    expect(m.stderr()).toContain('unknown adapter "claud" (did you mean claude?)');
  });

  it('replay of a file that does not exist: the file named, no stack, exit 2', async () => {
    const m = memoryIO(root);
    expect(await main(['replay', '--adapter', 'claude', '--file', '/nonexistent/stream.jsonl'], m.io)).toBe(2);
    expect(m.stderr()).toContain('--file /nonexistent/stream.jsonl: no such file');
    expect(m.stderr()).not.toContain('ENOENT');
  });
});

describe('serve on a port in use (issue 33.17)', () => {
  it('says which port and what to do, no stack, exit 2', async () => {
    const { createServer } = await import('node:net');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const m = memoryIO(root, { ...process.env, SERVE_TOKEN: 'a-token-long-enough-0123456789' });
      const code = await main(
        ['serve', '--adapter', 'demo', '--port', String(port), '--token-env', 'SERVE_TOKEN'],
        m.io,
      );
      expect(code).toBe(2);
      expect(m.stderr()).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(m.stderr()).not.toContain('EADDRINUSE');
    } finally {
      busy.close();
    }
  });
});
