/**
 * Records what an ACP agent really writes on stdout during one run through the `acp` adapter, as
 * `test/fixtures/streams/acp-<name>/<case>.jsonl`. Re-run:
 *   node test/adapters/acp/record-acp.ts <name> <case> [--approve|--deny] -- <command> [args…]
 * e.g. `node test/adapters/acp/record-acp.ts fixture plain -- node $PWD/test/fixtures/bin/acp-agent.mjs plain`
 * (the agent runs in a fresh temporary directory, ACP_CWD to choose it: give absolute paths).
 * The prompt comes from ACP_PROMPT (default: "Say hello."), extra env is inherited.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acpAdapter } from '../../../../src/adapters/protocols/acp/index.ts';
import { startRun } from '../../../../src/core/run/start-run.ts';
import { autoApprovalChannel } from '../../../../src/core/tools/auto-approval-channel.ts';
import { builtinTools } from '../../../../src/core/tools/builtin-tools.ts';
import { createToolHost } from '../../../../src/core/tools/create-tool-host.ts';

const [name, caseName, ...rest] = process.argv.slice(2);
const dash = rest.indexOf('--');
const flags = dash < 0 ? rest : rest.slice(0, dash);
const [command, ...args] = dash < 0 ? [] : rest.slice(dash + 1);
if (!name || !caseName || !command) {
  throw new Error('usage: record-acp.ts <name> <case> [--approve|--deny] -- <command> [args…]');
}
const cwd = process.env.ACP_CWD ?? mkdtempSync(join(tmpdir(), 'acp-record-'));
const stdout: string[] = [];
const approvals = autoApprovalChannel(flags.includes('--deny') ? 'deny' : 'approve');
const handle = startRun({
  adapter: acpAdapter(name, { binary: command, args }),
  request: {
    prompt: process.env.ACP_PROMPT ?? 'Say hello.',
    cwd,
    ...(process.env.ACP_RESUME ? { resumeSessionId: process.env.ACP_RESUME } : {}),
  },
  env: process.env,
  mcp: 'off',
  timeoutMs: Number(process.env.ACP_TIMEOUT_MS ?? 120_000),
  terminalGraceMs: 500,
  approvals,
  tools: ({ runId, emit }) =>
    createToolHost({
      runId,
      workspacePath: cwd,
      tools: builtinTools(),
      policy: { default: 'allow' },
      approvals,
      emit,
      task: { prompt: 'record' },
    }),
  onNativeOutput: (stream, chunk) => {
    if (stream === 'stdout') stdout.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
  },
});
for await (const event of handle.events) {
  if (process.env.ACP_VERBOSE) process.stderr.write(`${JSON.stringify(event)}\n`);
}
const end = await handle.result;
const dir = new URL(`../../../fixtures/streams/acp-${name}/`, import.meta.url).pathname;
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `${caseName}.jsonl`), stdout.join(''));
process.stderr.write(`${name}/${caseName}: ${end.reason}${end.message ? ` (${end.message})` : ''}\n`);
