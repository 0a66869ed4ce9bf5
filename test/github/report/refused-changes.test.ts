import { describe, expect, it } from 'vitest';
import type { ProgressStep } from '../../../src/github/report/progress-types.ts';
import { changedNothingReason, refusedChanges } from '../../../src/github/report/refused-changes.ts';

const step = (tool: string, state: 'done' | 'failed', target = 'x'): ProgressStep => ({
  id: `${tool}-${target}`,
  kind: 'tool',
  title: `${tool} ${target}`,
  tool,
  target,
  state,
});

describe('refusedChanges: what a run that changed nothing tried', () => {
  it('counts failed tools that change things, under any server prefix, and not failed reads or reports', () => {
    const steps: ProgressStep[] = [
      step('mcp__agentmux__shell', 'failed', 'printf hi > GREETING.md'),
      step('Read', 'failed', 'missing.md'),
      step('mcp__agentmux__read_file', 'failed', 'nope'),
      step('write_file', 'done', 'ok.md'),
      step('Bash', 'failed', 'rm -rf /'),
      { id: 'p', kind: 'progress', title: 'thinking', state: 'failed' },
    ];
    expect(refusedChanges(steps)).toEqual(['mcp__agentmux__shell printf hi > GREETING.md', 'Bash rm -rf /']);
  });

  it('gives no reason for a question answered, and one naming the attempts otherwise', () => {
    expect(changedNothingReason([step('Read', 'failed'), step('grep', 'done')])).toBeUndefined();
    expect(changedNothingReason([step('shell', 'failed', 'make')])).toBe(
      'the agent changed no files: its attempt to change them was refused or failed (`shell make`)',
    );
    const many = ['a', 'b', 'c', 'd', 'e'].map((t) => step('Edit', 'failed', t));
    expect(changedNothingReason(many)).toMatch(
      /5 of its attempts .* were refused or failed \(`Edit a`, `Edit b`, `Edit c` and 2 more\)/,
    );
  });
});
