import { randomBytes } from 'node:crypto';
import type { Redactor } from '../redact/redactor.ts';
import { type McpServerHandle, startMcpServer } from '../tools/mcp/start-mcp-server.ts';
import type { ToolHost } from '../tools/tool-host.ts';
import type { RunEmitter } from './run-emitter.ts';
import type { RunOptions } from './run-options.ts';

/** The MCP server an agent of this run is given: its URL and bearer token (both empty when none). */
export interface RunMcp {
  url: string;
  token: string;
  server?: McpServerHandle;
}

/**
 * Serves the run's tools over MCP when `RunOptions.mcp` and the adapter ask for it (its token is
 * redacted); a server that cannot start costs a recoverable error, never the run.
 */
export async function startRunMcp(
  options: RunOptions,
  run: { runId: string; tools: ToolHost | undefined; emitter: RunEmitter; redactor: Redactor },
): Promise<RunMcp> {
  const none: RunMcp = { url: options.mcpUrl ?? '', token: '' };
  const wanted = options.mcp ?? 'auto';
  const { tools, emitter } = run;
  if (options.mcpUrl || !tools || wanted === 'off' || (wanted === 'auto' && !options.adapter.capabilities.mcp)) {
    return none;
  }
  const token = randomBytes(24).toString('base64url');
  run.redactor.addSecret(token);
  try {
    const server = await startMcpServer({
      host: tools,
      token,
      permissionPrompt: options.approvals
        ? { approvals: options.approvals, runId: run.runId, emit: (draft) => emitter.emit(draft) }
        : undefined,
    });
    return { url: server.url, token, server };
  } catch (error) {
    emitter.emit({
      type: 'error',
      code: 'internal',
      message: `the run's MCP server could not start, the agent gets no MCP tools: ${(error as Error).message}`,
      recoverable: true,
    });
    return none;
  }
}
