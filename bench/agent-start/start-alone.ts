import { type ChildProcess, spawn } from 'node:child_process';
import type { CapturedLaunch } from './captured-launch.ts';

/** What agent-mux writes to the program once it runs: the plan's stdin (then closed), or an ACP conversation. */
export type AloneInput = { kind: 'stdin'; text: string | undefined } | { kind: 'acp'; prompt: string; cwd: string };

/**
 * Starts the captured program again on its own, with the same argv, environment and cwd, and gives
 * it what agent-mux gives it: the prompt on stdin (closed after it), or, for an ACP agent, the
 * shortest client there is (`initialize` → `session/new` with no MCP server → `session/prompt`, each
 * sent as soon as the answer before it arrives; any request of the agent gets an error at once).
 * The program runs in its own process group (kill `-pid` to stop all of it).
 */
export function startAlone(launch: CapturedLaunch, input: AloneInput, env: Record<string, string>): ChildProcess {
  const [command, ...args] = launch.argv;
  if (!command) throw new Error('captured an empty command line');
  const child = spawn(command, args, {
    cwd: launch.cwd,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  child.stdin?.on('error', () => undefined);
  if (input.kind === 'stdin') {
    if (input.text !== undefined) child.stdin?.write(input.text);
    child.stdin?.end();
    child.stdout?.resume();
    return child;
  }
  const send = (message: Record<string, unknown>) =>
    child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  let buffered = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      let message: { id?: number | string; method?: string; result?: { sessionId?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (message.method !== undefined) {
        if (message.id !== undefined) send({ id: message.id, error: { code: -32601, message: 'not offered' } });
      } else if (message.id === 1) {
        send({ id: 2, method: 'session/new', params: { cwd: input.cwd, mcpServers: [] } });
      } else if (message.id === 2 && message.result?.sessionId) {
        send({
          id: 3,
          method: 'session/prompt',
          params: { sessionId: message.result.sessionId, prompt: [{ type: 'text', text: input.prompt }] },
        });
      }
    }
  });
  send({
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, _meta: { terminal_output: true } },
      clientInfo: { name: 'agent-mux-bench', version: '1' },
    },
  });
  return child;
}
