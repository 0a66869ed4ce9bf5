import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { qwenAcpAdapter } from '../../../../src/adapters/agents/qwen/index.ts';
import { acpTranslator, pickOption } from '../../../../src/adapters/protocols/acp/index.ts';

const lines = (name: string) =>
  readFileSync(new URL(`../../../fixtures/streams/acp-qwen/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('qwen-acp (recorded from Qwen Code 0.24.4 --acp --approval-mode default)', () => {
  it('sums the tokens of each model response (message chunks’ _meta.usage) into the turn’s cost', () => {
    const state = acpTranslator.init({ debug: false, request: { prompt: 'p', cwd: '/w' } });
    const drafts = lines('tool').flatMap((value) => acpTranslator.translate({ kind: 'json', value }, state));
    // Two model responses (the tool call, then the answer), 120 + 24 tokens each with 40 cached.
    expect(drafts.filter((d) => d.type === 'cost')).toEqual([
      {
        type: 'cost',
        inputTokens: 240,
        outputTokens: 48,
        cacheReadTokens: 80,
        thinkingTokens: 0,
        // Qwen's own model id: no price known, so the adapter's cost model prices the tokens.
        model: '$runtime|openai|qwen3-coder-plus(openai)',
      },
    ]);
  });

  it('asks before the write, offering to persist the rule (project, user), once, or reject', () => {
    const asked = lines('tool').filter((m) => m.method === 'session/request_permission');
    expect(asked.map((m) => (m.params as { options: unknown }).options)).toEqual([
      [
        { optionId: 'proceed_always_project', name: 'Always Allow in project: echo *', kind: 'allow_always' },
        { optionId: 'proceed_always_user', name: 'Always Allow for user: echo *', kind: 'allow_always' },
        { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
        { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
      ],
    ]);
  });

  it('answers an `always` approval with proceed_once: no rule is written into .qwen/settings.json', () => {
    const asked = lines('tool').find((m) => m.method === 'session/request_permission');
    if (!asked) throw new Error('the recording asks for a permission');
    const { options } = asked.params as { options: Parameters<typeof pickOption>[0] };
    expect(pickOption(options, { kind: 'approve', scope: 'always' })?.optionId).toBe('proceed_once');
    expect(pickOption(options, { kind: 'deny', reason: 'no' })?.optionId).toBe('cancel');
  });

  it('launches qwen --acp with the approval mode pinned to default', async () => {
    const adapter = qwenAcpAdapter();
    if (adapter.launch.kind !== 'process') throw new Error('process launch expected');
    const ctx = { runId: 'r', request: { prompt: 'p', cwd: '/w' } } as Parameters<typeof adapter.launch.plan>[0];
    const plan = await adapter.launch.plan(ctx);
    expect([plan.command, ...plan.args]).toEqual(['qwen', '--acp', '--approval-mode', 'default']);
  });
});
