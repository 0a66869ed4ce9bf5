import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main, usage } from '../../src/cli/main.ts';
import { agentEventSchema } from '../../src/core/events/index.ts';
import type { SimulationReport } from '../../src/simulate/simulation-report.ts';
import { createSimulateFixture, git, type SimulateFixture, TYPO_README } from '../simulate/simulate-fixture.ts';
import { memoryIO } from '../support/memory-io.ts';
import { webhookPayload } from '../support/webhook-payload.ts';

let fixture: SimulateFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** A checkout with the typo (and `files`), and an `issue_comment.created` payload file from GitHub's examples. */
async function setup(body: string, files: Record<string, string> = {}) {
  fixture = await createSimulateFixture(files);
  const payload = webhookPayload('issue_comment', 'created', {
    owner: 'octo',
    repo: 'demo',
    body,
    login: 'alice',
    number: 12,
    title: 'Fix the README typo',
  });
  const payloadFile = join(fixture.root, 'payload.json');
  await writeFile(payloadFile, JSON.stringify(payload));
  return { checkout: fixture.checkout, payloadFile, root: fixture.root };
}

const simulate = async (cwd: string, args: string[]) => {
  const m = memoryIO(cwd);
  const code = await main(['simulate', '--event', 'issue_comment', ...args], m.io);
  return { code, out: m.stdout(), err: m.stderr() };
};

describe('agent-mux simulate', () => {
  it('runs the pipeline: eyes, the tracking comment, the check run, the PR and the pushed branch; the checkout is untouched', async () => {
    const { checkout, payloadFile } = await setup('@agent demo: fix the typo please');
    const before = await git(checkout, 'for-each-ref');
    const { code, out, err } = await simulate(checkout, ['--payload', payloadFile]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('simulated issue_comment on octo/demo (default branch main) by @alice');
    expect(out).toContain('decision: run agent demo');
    expect(out).toMatch(/run run_\S+: success/);
    expect(out).toContain('approved by @simulated-approver');
    expect(out).toMatch(/reaction: eyes on issue comment \d+ by @agent-mux\[bot\]/);
    expect(out).toMatch(/── comment \d+ on #12 by @agent-mux\[bot\]\n {4}<!-- agent-mux:run:/);
    expect(out).toContain('### ✅ demo succeeded');
    expect(out).toMatch(/── check run \d+ “agent-mux \/ demo” on [0-9a-f]{7}: completed \(success\)/);
    expect(out).toContain('run ended: completed');
    expect(out).toContain('── pull request #13: agent-mux: Fix the README typo');
    expect(out).toContain('agent-mux/12-fix-the-readme-typo → main  https://github.com/octo/demo/pull/13');
    expect(out).toContain('Closes #12.');
    expect(out).toContain('── branch agent-mux/12-fix-the-readme-typo');
    expect(out).toContain('Author: agent-mux <agent-mux@users.noreply.github.com>');
    expect(out).toMatch(/README\.md \| 2 \+-/);
    expect(await git(checkout, 'for-each-ref')).toBe(before);
    expect(await readFile(join(checkout, 'README.md'), 'utf8')).toBe(TYPO_README);
  });

  it('--approve none: the write is denied, the run changed nothing (neutral, exit 1), no PR', async () => {
    const { checkout, payloadFile } = await setup('@agent fix the typo');
    const { code, out } = await simulate(checkout, ['--payload', payloadFile, '--approve', 'none']);
    expect(code).toBe(1);
    expect(out).toMatch(/run run_\S+: neutral/);
    expect(out).toMatch(/approval \S+ \(write_file\): denied/);
    expect(out).toContain('denied in simulation');
    expect(out).not.toContain('── pull request');
    expect(out).not.toContain('── branch');
    expect(out).toContain('no pull request');
  });

  it('shows the run live (the view of run), then the report', async () => {
    const { checkout, payloadFile } = await setup('@agent demo: fix the typo please');
    const { code, out } = await simulate(checkout, ['--payload', payloadFile]);
    expect(code).toBe(0);
    const report = out.indexOf('simulated issue_comment on octo/demo');
    expect(report).toBeGreaterThan(0);
    const live = out.slice(0, report);
    expect(live).toContain('● session demo_');
    expect(live).toContain('⚙ write_file');
    expect(live).toMatch(/\? approval \S+: write_file/);
    expect(live).toContain('approved (once) by simulated-approver');
    expect(live).toMatch(/✔ completed · /);
  });

  it('--json: the events as JSON lines as they happen, then the report as the last line', async () => {
    const { checkout, payloadFile } = await setup('@agent fix the typo');
    const { code, out } = await simulate(checkout, ['--payload', payloadFile, '--json', '--keep']);
    expect(code).toBe(0);
    const rows = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    const events = rows.slice(0, -1).map((row) => agentEventSchema.parse(row));
    expect(events[0]?.type).toBe('session_start');
    expect(events.at(-1)).toMatchObject({ type: 'run_end', reason: 'completed' });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['approval_request', 'approval_granted']));
    const { type, ...report } = rows.at(-1) as SimulationReport & { type: string };
    expect(type).toBe('simulation_report');
    expect(report.decision).toMatchObject({ kind: 'run', agent: 'demo', instruction: 'fix the typo' });
    expect(report.run).toMatchObject({ conclusion: 'success', changedFiles: ['README.md'] });
    expect(report.checkRuns).toEqual([
      expect.objectContaining({ name: 'agent-mux / demo', status: 'completed', conclusion: 'success' }),
    ]);
    expect(report.pullRequests).toEqual([expect.objectContaining({ head: 'agent-mux/12-fix-the-readme-typo' })]);
    expect(report.comments.map((c) => c.user)).toEqual(['agent-mux[bot]', 'agent-mux[bot]']);
    expect(report.branch?.log).toContain('README.md');
    expect(report.bareRepo).toBeDefined();
    expect(await git(report.bareRepo ?? '', 'show', 'agent-mux/12-fix-the-readme-typo:README.md')).toContain(
      'This project shows',
    );
    const kept = dirname(report.bareRepo ?? '');
    expect(existsSync(join(kept, 'workspace'))).toBe(false);
    await rm(kept, { recursive: true, force: true });
  });

  it('--json events are written while the run goes on: Ctrl-C after the first one cancels it', async () => {
    const { checkout, payloadFile } = await setup('@agent fix the typo');
    const m = memoryIO(checkout);
    m.io.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('"type":"session_start"')) m.signals.emit('SIGINT', 'SIGINT');
    });
    const code = await main(['simulate', '--event', 'issue_comment', '--payload', payloadFile, '--json'], m.io);
    const rows = m
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; run?: { conclusion: string } });
    expect(rows.at(-2)).toMatchObject({ type: 'run_end', reason: 'aborted' });
    expect(rows.at(-1)).toMatchObject({ type: 'simulation_report', run: { conclusion: 'cancelled' } });
    expect(rows.some((row) => row.type === 'approval_granted')).toBe(false);
    expect(code).toBe(1);
  });

  it('a comment without a command: ignored, with the reason, exit 0', async () => {
    const { checkout, payloadFile } = await setup('Thanks, looks good to me.');
    const { code, out } = await simulate(checkout, ['--payload', payloadFile]);
    expect(code).toBe(0);
    expect(out).toContain('decision: ignored — no command for agent-mux in the event');
    expect(out).not.toContain('── check run');
  });

  it('--as with --as-role read: refused, nothing written', async () => {
    const { checkout, payloadFile } = await setup('@agent fix it');
    const { code, out } = await simulate(checkout, ['--payload', payloadFile, '--as', 'mallory', '--as-role', 'read']);
    expect(code).toBe(0);
    expect(out).toContain('by @mallory');
    expect(out).toMatch(/decision: refused — .*read/);
    expect(out).not.toContain('reaction:');
  });

  it('an invalid .github/agent-mux.yml: the config error names the field and the line, exit 2', async () => {
    const { checkout, payloadFile } = await setup('@agent fix it', {
      '.github/agent-mux.yml': 'trigger:\n  permission: writer\n',
    });
    const { code, out } = await simulate(checkout, ['--payload', payloadFile]);
    expect(code).toBe(2);
    expect(out).toContain('decision: config error');
    expect(out).toContain('trigger.permission');
    expect(out).toContain('.github/agent-mux.yml:2');
    expect(out).toMatch(/check run \d+ “agent-mux \/ config” on [0-9a-f]{7}: completed \(failure\)/);
  });

  it('--repo-config tries an uncommitted config: its phrase decides', async () => {
    const { checkout, payloadFile, root } = await setup('@agent fix it');
    const config = join(root, 'agent-mux.yml');
    await writeFile(config, 'trigger:\n  phrase: "@bot"\n');
    const { code, out } = await simulate(checkout, ['--payload', payloadFile, '--repo-config', config]);
    expect(code).toBe(0);
    expect(out).toContain('decision: ignored — no command for agent-mux in the event');
  });

  it('a payload missing what its event carries (no sender, issue or comment): exit 2, the fields named (issue 33.16)', async () => {
    const { checkout, root } = await setup('@agent fix it');
    const thin = join(root, 'thin.json');
    await writeFile(
      thin,
      JSON.stringify({ action: 'created', repository: { name: 'demo', owner: { login: 'octo' } } }),
    );
    const { code, out } = await simulate(checkout, ['--payload', thin]);
    expect(code).toBe(2);
    expect(out).toMatch(/Malformed issue_comment payload: sender: .*issue: .*comment: /);
  });

  it.each([
    [['--payload', 'missing.json'], /cannot read the payload missing\.json: file not found/],
    [['--payload', 'bad.json'], /the payload bad\.json is not JSON/],
    [['--payload', 'payload.json', '--repo', 'not-a-repo'], /not-a-repo is not a git checkout/],
    [['--payload', 'payload.json', '--approve', 'maybe'], /--approve takes all or none/],
    [['--payload', 'payload.json', '--as-role', 'boss'], /--as-role takes one of/],
    [['--payload', 'payload.json', '--default-branch', 'trunk'], /the checkout has no branch trunk/],
    [
      ['--payload', 'payload.json', '--event', 'issue_coment'],
      /unknown event "issue_coment" \(did you mean issue_comment\?\); --event takes one of issue_comment, pull_request_review_comment, pull_request_review, issues, pull_request, workflow_dispatch\n/,
    ],
    [['--payload', 'payload.json', '--event', 'push'], /unknown event "push"; --event takes one of issue_comment, /],
  ])('%j: exit 2 with a clear message', async (args, message) => {
    const { root } = await setup('@agent fix it');
    await writeFile(join(root, 'bad.json'), '{ not json');
    const m = memoryIO(root);
    const code = await main(['simulate', '--event', 'issue_comment', '--repo', 'checkout', ...args], m.io);
    expect(code).toBe(2);
    expect(m.stderr()).toMatch(message);
    expect(m.stdout()).toBe('');
  });

  it('--event is required; --help shows the options; the main usage lists simulate', async () => {
    const m = memoryIO(process.cwd());
    expect(await main(['simulate', '--payload', 'x.json'], m.io)).toBe(2);
    expect(m.stderr()).toContain('--event is required');
    const help = memoryIO(process.cwd());
    expect(await main(['simulate', '--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain('--approve <mode>');
    expect(help.stdout()).toContain('Exit code:');
    expect(usage).toContain('agent-mux simulate');
    expect(existsSync(join(process.cwd(), 'x.json'))).toBe(false);
  });
});
