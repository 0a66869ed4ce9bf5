import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_README, demoAdapter } from '../../../../src/adapters/agents/demo/demo-adapter.ts';
import { DEMO_NOTE_FILE } from '../../../../src/adapters/agents/demo/render-demo-note.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import type { ApprovalChannel, ApprovalRequest } from '../../../../src/core/tools/approval-channel.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { defaultPolicy } from '../../../../src/core/tools/default-policy.ts';
import type { ToolTask } from '../../../../src/core/tools/tool-registry.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';

const workspace = (files: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-mux-demo-test-'));
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
};

/** Answers every approval with `answer` and keeps the requests it saw. */
function recordingChannel(answer: 'approve' | 'deny') {
  const asked: ApprovalRequest[] = [];
  const channel: ApprovalChannel = {
    request: async (request) => {
      asked.push(request);
      return answer === 'approve'
        ? { kind: 'approve', scope: 'once', by: 'test' }
        : { kind: 'deny', reason: 'no', by: 'test' };
    },
  };
  return { channel, asked };
}

async function runDemo(cwd: string, answer: 'approve' | 'deny', task: Partial<ToolTask> = {}) {
  const { channel, asked } = recordingChannel(answer);
  const prompt = task.prompt ?? 'fix the typo in README.md';
  const { events, end } = await collectRun(
    startRun({
      adapter: demoAdapter({ stepDelayMs: 1 }),
      request: { prompt, cwd },
      approvals: channel,
      policy: defaultPolicy,
      tools: ({ runId, emit }) =>
        createToolHost({
          runId,
          workspacePath: cwd,
          tools: builtinTools(),
          policy: defaultPolicy,
          approvals: channel,
          emit,
          task: { ...task, prompt },
        }),
    }),
  );
  expectWellFormedStream(events, 'demo');
  const writes = events.filter((e) => e.type === 'tool_call_ready' && e.toolName === 'write_file');
  return { events, end, asked, writes };
}

describe('the demo adapter', () => {
  it('in an empty workspace writes its README with a typo and, once approved, fixes it', async () => {
    const cwd = workspace();
    const { end, asked } = await runDemo(cwd, 'approve');
    expect(end.reason).toBe('completed');
    expect(asked.map((a) => a.toolName)).toEqual(['write_file']);
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toBe(DEMO_README.replace('projcet', 'project'));
    expect(end.output).toEqual({ changedFiles: ['README.md'], summary: 'Fixed the typo in README.md.' });
    expect(existsSync(join(cwd, DEMO_NOTE_FILE))).toBe(false);
  });

  it('fixes "teh" in a README of its own', async () => {
    const cwd = workspace({ 'README.md': 'Read teh docs.\n' });
    const { end } = await runDemo(cwd, 'approve');
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toBe('Read the docs.\n');
    expect(end.output).toMatchObject({ changedFiles: ['README.md'] });
  });

  it('in a repository without a typo, once approved, writes AGENT_MUX_DEMO.md restating the request', async () => {
    const readme = '# Widgets\n\nNothing misspelled here.\n';
    const cwd = workspace({ 'README.md': readme });
    const { end, asked, writes } = await runDemo(cwd, 'approve', {
      prompt: 'add a changelog\nplease',
      repository: 'octo/widgets',
      issue: { number: 7 },
    });
    expect(end.reason).toBe('completed');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ toolName: 'write_file', input: { path: DEMO_NOTE_FILE } });
    expect(writes).toHaveLength(1);
    const note = readFileSync(join(cwd, DEMO_NOTE_FILE), 'utf8');
    expect(note).toContain('(octo/widgets, issue #7):\n\n> add a changelog\n> please\n');
    expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toBe(readme);
    expect(end.output).toEqual({
      changedFiles: [DEMO_NOTE_FILE],
      summary: `Wrote ${DEMO_NOTE_FILE}, restating the request.`,
    });
  });

  it('in a non-empty workspace without README.md writes only the note, naming the pull request', async () => {
    const cwd = workspace({ 'index.js': 'console.log(1);\n' });
    mkdirSync(join(cwd, 'src'));
    const { end } = await runDemo(cwd, 'approve', { prompt: 'rename x', pullRequest: { number: 3 } });
    expect(existsSync(join(cwd, 'README.md'))).toBe(false);
    expect(readFileSync(join(cwd, DEMO_NOTE_FILE), 'utf8')).toContain('asked (pull request #3):\n\n> rename x\n');
    expect(end.output).toMatchObject({ changedFiles: [DEMO_NOTE_FILE] });
  });

  it('asks before writing the note: denied, it changes nothing and says so', async () => {
    const cwd = workspace({ 'README.md': 'Fine.\n' });
    const { end, asked, events } = await runDemo(cwd, 'deny');
    expect(end.reason).toBe('completed');
    expect(asked.map((a) => a.input)).toEqual([expect.objectContaining({ path: DEMO_NOTE_FILE })]);
    expect(existsSync(join(cwd, DEMO_NOTE_FILE))).toBe(false);
    expect(end.output).toEqual({ changedFiles: [], summary: 'Nothing changed.' });
    const said = events.flatMap((e) => (e.type === 'message_stop' ? [e.text] : []));
    expect(said).toContainEqual(expect.stringContaining(`I could not write ${DEMO_NOTE_FILE}`));
  });
});
