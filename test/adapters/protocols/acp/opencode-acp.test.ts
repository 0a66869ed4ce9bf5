import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kiloAcpAdapter } from '../../../../src/adapters/agents/kilo/index.ts';
import { opencodeAcpAdapter } from '../../../../src/adapters/agents/opencode/index.ts';
import { qwenAcpAdapter } from '../../../../src/adapters/agents/qwen/index.ts';
import type { AgentEvent } from '../../../../src/core/events/index.ts';
import { replayStream } from '../../../../src/core/run/replay-stream.ts';

const recorded = (name: string) =>
  readFileSync(new URL(`../../../fixtures/streams/acp-opencode/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('opencode-acp / kilo-acp', () => {
  it("prices the prompt's tokens by the session's model (OpenCode sends no USD over ACP), and says so when it cannot", async () => {
    const end = async (model: string) => {
      const stream = readFileSync(
        new URL('../../../fixtures/streams/acp-opencode/plain.jsonl', import.meta.url),
        'utf8',
      ).replaceAll('"currentValue":"fake/fake-model"', `"currentValue":"${model}"`);
      const events: AgentEvent[] = [];
      await replayStream(opencodeAcpAdapter(), [stream], (event) => events.push(event), { exitCode: 0 });
      return events;
    };
    const priced = await end('anthropic/claude-sonnet-4-5');
    expect(priced.find((e) => e.type === 'session_start')).toMatchObject({ model: 'anthropic/claude-sonnet-4-5' });
    const totals = priced.find((e) => e.type === 'run_end');
    // 80 fresh input tokens, 40 cache reads and 24 output tokens at Claude Sonnet 4.5's list price.
    expect(totals?.type === 'run_end' && totals.totals.usd).toBeGreaterThan(0);
    const notes = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'debug' ? [e.message] : []));
    expect(notes(priced).filter((m) => m.startsWith('no price known'))).toEqual([]);
    const unpriced = await end('fake/fake-model');
    expect(notes(unpriced)).toContain('no price known for cost model fake/fake-model; token costs count as USD 0');
  });

  it("served on the caller's tools: every built-in tool denied, the run's MCP tools allowed; others refuse", async () => {
    const adapter = opencodeAcpAdapter();
    expect(adapter.callerTools).toBe('mcp');
    // Not verified over relayed tools: refused by `agent-mux serve` (422 caller_tools_unsupported).
    expect(kiloAcpAdapter().callerTools).toBeUndefined();
    expect(qwenAcpAdapter().callerTools).toBeUndefined();
    if (adapter.launch.kind !== 'process') throw new Error('process launch expected');
    const ctx = {
      runId: 'r',
      request: { prompt: 'p', cwd: '/w', callerToolsOnly: true },
      policy: { default: 'allow', rules: [{ tool: 'bash', decision: 'allow' }] },
    } as Parameters<typeof adapter.launch.plan>[0];
    const plan = await adapter.launch.plan(ctx);
    expect(plan.args).toEqual(['acp']);
    const config = JSON.parse(plan.env?.OPENCODE_CONFIG_CONTENT ?? '{}');
    // The caller's policy, not this one, decides: it never turns a built-in tool back on here.
    expect(config.permission).toEqual({ '*': 'deny', 'agent-mux_*': 'allow' });
    expect(Object.keys(config.permission)).toEqual(['*', 'agent-mux_*']);
    expect(config.agent.build.permission).toEqual(config.permission);
  });

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
