import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { geminiAcpAdapter } from '../../../../src/adapters/agents/gemini/index.ts';
import { acpTranslator } from '../../../../src/adapters/protocols/acp/index.ts';

const streams = new URL('../../../fixtures/streams/acp-gemini/', import.meta.url);
const lines = (name: string) =>
  readFileSync(new URL(`${name}.jsonl`, streams), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('gemini-acp (recorded from Gemini CLI 0.61.0 --acp --approval-mode default)', () => {
  it('asks before a shell command that writes, offering always / once / cancel', () => {
    const asked = lines('tool').filter((m) => m.method === 'session/request_permission');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.params).toMatchObject({
      options: [
        { optionId: 'proceed_always', kind: 'allow_always' },
        { optionId: 'proceed_once', kind: 'allow_once' },
        { optionId: 'cancel', kind: 'reject_once' },
      ],
      toolCall: { title: 'echo agent-mux-live > agent-mux-live.txt', kind: 'execute', status: 'pending' },
    });
  });

  it('reports the tokens of _meta.quota.token_count in the prompt response', () => {
    const state = acpTranslator.init({ debug: false, request: { prompt: 'p', cwd: '/w' } });
    const drafts = lines('plain').flatMap((value) => acpTranslator.translate({ kind: 'json', value }, state));
    // Priced by the session's model (the session/new response's `models.currentModelId`).
    expect(drafts.filter((d) => d.type === 'cost')).toEqual([
      { type: 'cost', inputTokens: 120, outputTokens: 24, model: 'gemini-2.5-flash' },
    ]);
  });

  it('launches gemini --acp with the approval mode pinned to default', async () => {
    const adapter = geminiAcpAdapter();
    expect(adapter.id).toBe('gemini-acp');
    expect(adapter.program).toMatchObject({
      command: 'gemini',
      npmPackage: '@google/gemini-cli',
      testedVersion: '0.61.0',
    });
    if (adapter.launch.kind !== 'process') throw new Error('process launch expected');
    const ctx = { runId: 'r', request: { prompt: 'p', cwd: '/w' } } as Parameters<typeof adapter.launch.plan>[0];
    const plan = await adapter.launch.plan(ctx);
    expect([plan.command, ...plan.args]).toEqual(['gemini', '--acp', '--approval-mode', 'default']);
  });
});
