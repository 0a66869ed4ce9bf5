import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolHost } from '../../../src/core/tools/create-tool-host.ts';
import { DiffAnchors } from '../../../src/github/review/diff-anchors.ts';
import { FindingCollector } from '../../../src/github/review/finding-collector.ts';
import { reportFindingTool } from '../../../src/github/review/report-finding-tool.ts';

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'agent-mux-review-tool-'));
  await mkdir(join(workspace, 'src'));
  await writeFile(join(workspace, 'src/a.ts'), 'const a = 1;\nconst b = a.c.d;\nexport { b };\n');
  await symlink('/etc/passwd', join(workspace, 'src/link.ts'));
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

function host() {
  const anchors = DiffAnchors.fromFiles([
    { filename: 'src/a.ts', patch: '@@ -1,2 +1,2 @@\n const a = 1;\n-x\n+const b = a.c.d;' },
  ]);
  const collector = new FindingCollector({ anchors, max: 3 });
  const tools = createToolHost({
    runId: 'r',
    workspacePath: workspace,
    tools: [reportFindingTool(collector)],
    policy: { default: 'allow', rules: [] },
    emit: () => undefined,
    task: { prompt: 'review' },
  });
  return { collector, tools };
}

describe('report_finding', () => {
  it('keeps a valid finding with its anchored code and says where it will show', async () => {
    const { collector, tools } = host();
    const inline = await tools.call('report_finding', {
      path: 'src/a.ts',
      line: 2,
      severity: 'blocker',
      title: 'a.c is undefined',
      suggestion: 'const b = a;',
    });
    expect(inline).toMatchObject({ ok: true, value: { recorded: true, shownOn: 'the diff line' } });
    const body = await tools.call('report_finding', {
      path: 'src/a.ts',
      line: 3,
      severity: 'nit',
      title: 'export style',
    });
    expect(body).toMatchObject({ ok: true, value: { shownOn: expect.stringContaining("review's body") } });
    expect(collector.findings().map((f) => f.anchor)).toEqual(['const b = a.c.d;', 'export { b };']);
  });

  it('answers an invalid finding with an error the agent can act on, and keeps nothing', async () => {
    const { collector, tools } = host();
    const cases: [unknown, RegExp][] = [
      [{ path: 'src/a.ts', line: 2, severity: 'urgent', title: 't' }, /severity/],
      [{ path: 'src/a.ts', line: 9, severity: 'major', title: 't' }, /line 9 is past the end of src\/a.ts \(3 lines\)/],
      [
        { path: 'src/none.ts', line: 1, severity: 'major', title: 't' },
        /src\/none.ts is not a file of the pull request's head/,
      ],
      [{ path: 'src/link.ts', line: 1, severity: 'major', title: 't' }, /not a file of the pull request's head/],
      [{ path: '../outside', line: 1, severity: 'major', title: 't' }, /without "\.\."/],
      [{ path: 'src/a.ts', line: 1, startLine: 2, severity: 'major', title: 't' }, /startLine must not be after line/],
    ];
    for (const [input, message] of cases) {
      const result = await tools.call('report_finding', input);
      expect(result.ok, JSON.stringify(input)).toBe(false);
      expect((result as { error: string }).error).toMatch(message);
    }
    expect(collector.size).toBe(0);
  });

  it('keeps a repeated finding once, and refuses past the review’s limit', async () => {
    const { collector, tools } = host();
    const finding = { path: 'src/a.ts', line: 1, severity: 'minor', title: 'one' };
    await tools.call('report_finding', finding);
    expect(await tools.call('report_finding', finding)).toMatchObject({ ok: true, value: { recorded: false } });
    await tools.call('report_finding', { ...finding, title: 'two' });
    await tools.call('report_finding', { ...finding, title: 'three' });
    const over = await tools.call('report_finding', { ...finding, title: 'four' });
    expect(over).toMatchObject({ ok: false, error: expect.stringContaining('report only the most serious') });
    expect(collector.size).toBe(3);
  });
});
