import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kiloAcpAdapter, opencodeAcpAdapter } from '../../../../src/adapters/protocols/acp/index.ts';

const recorded = (name: string) =>
  readFileSync(new URL(`../../../fixtures/streams/acp-opencode/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('opencode-acp / kilo-acp', () => {
  it('asks every tool in the inline config, and removes the tools the policy denies', async () => {
    for (const [adapter, env, agent] of [
      [opencodeAcpAdapter(), 'OPENCODE_CONFIG_CONTENT', 'build'],
      [kiloAcpAdapter(), 'KILO_CONFIG_CONTENT', 'code'],
    ] as const) {
      if (adapter.launch.kind !== 'process') throw new Error('process launch expected');
      const ctx = {
        runId: 'r',
        request: { prompt: 'p', cwd: '/w' },
        policy: {
          default: 'allow',
          rules: [
            { tool: 'bash', decision: 'deny' },
            { tool: 'edit', decision: 'allow' },
          ],
        },
      } as Parameters<typeof adapter.launch.plan>[0];
      const plan = await adapter.launch.plan(ctx);
      expect(plan.args).toEqual(['acp']);
      const config = JSON.parse(plan.env?.[env] ?? '{}');
      // `allow` is decided by the client over ACP, not by the agent: only the deny reaches its config.
      expect(config.permission).toEqual({ '*': 'ask', bash: 'deny' });
      expect(config.agent[agent].permission).toEqual(config.permission);
    }
  });

  it('recorded from OpenCode 1.18.33: the write is asked with allow_once / allow_always / reject', () => {
    const asked = recorded('tool').filter((m) => m.method === 'session/request_permission');
    expect(asked.map((m) => m.params)).toMatchObject([
      {
        toolCall: { kind: 'execute', rawInput: { command: 'echo agent-mux-live > agent-mux-live.txt' } },
        options: [
          { optionId: 'once', kind: 'allow_once' },
          { optionId: 'always', kind: 'allow_always' },
          { optionId: 'reject', kind: 'reject_once' },
        ],
      },
    ]);
  });
});
