import type { LaunchContext, RunRequest } from './adapter.ts';

/**
 * A launch context for planning a program's start outside a run (replaying a stream, a benchmark):
 * no lease, lease epoch 0, no MCP server, an empty environment, the workspace the request's cwd.
 */
export function offlineLaunchContext(request: RunRequest, runId: string, debug = false): LaunchContext {
  return {
    request,
    runId,
    taskId: runId,
    leaseToken: '',
    leaseEpoch: 0,
    mcpUrl: '',
    mcpToken: '',
    workspacePath: request.cwd,
    env: {},
    debug,
  };
}
