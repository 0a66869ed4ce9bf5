import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_README, demoAdapter } from '../../../../src/adapters/agents/demo/demo-adapter.ts';
import { httpAdapter } from '../../../../src/adapters/protocols/http/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';
import { startRemoteServer } from '../../../../src/remote/index.ts';
import { expectWellFormedStream } from '../../../contract/adapter-contract.ts';
import { collectRun } from '../../../support/collect-run.ts';

describe('http adapter against agent-mux serve', () => {
  it('runs the demo agent served remotely (bearer), its tool calls answered and its file fixed here', async () => {
    const server = await startRemoteServer({
      adapter: demoAdapter({ stepDelayMs: 0 }),
      auth: { type: 'bearer', token: 'serve-token-0123456789' },
    });
    try {
      // The tools run here, on this side's workspace: the demo reads and fixes this README.
      const cwd = mkdtempSync(join(tmpdir(), 'agent-mux-http-serve-'));
      writeFileSync(join(cwd, 'README.md'), DEMO_README);
      const adapter = httpAdapter('remote-demo', {
        type: 'http',
        baseUrl: server.url,
        auth: { type: 'bearer', tokenEnv: 'SERVE_TOKEN' },
        protocol: 'ca-http-v1',
        maxConcurrentSessions: 1,
      });
      const { events, end } = await collectRun(
        startRun({
          adapter,
          request: { prompt: 'fix the typo', cwd },
          env: { SERVE_TOKEN: 'serve-token-0123456789' },
          tools: ({ runId, emit }) =>
            createToolHost({
              runId,
              workspacePath: cwd,
              tools: builtinTools(),
              policy: { default: 'allow' },
              emit,
              task: { prompt: 'fix the typo' },
            }),
        }),
      );
      expectWellFormedStream(events, 'remote-demo');
      expect(end.reason).toBe('completed');
      expect(events.some((e) => e.type === 'tool_call_ready' && e.toolName === 'read_task')).toBe(true);
      expect(events.filter((e) => e.type === 'tool_result').every((e) => e.type === 'tool_result' && !e.isError)).toBe(
        true,
      );
      expect(readFileSync(join(cwd, 'README.md'), 'utf8')).toContain('This project shows');
      expect(end.totals).toMatchObject({ inputTokens: 1200, outputTokens: 180 });
    } finally {
      await server.close();
    }
  });
});
