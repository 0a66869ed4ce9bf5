import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectPiStyleAuth, PI_KEY_ENV, piAgentDir } from './pi-auth.ts';
import { piPlan, piThinking } from './pi-plan.ts';
import { piRpcController } from './pi-rpc.ts';
import { piSessionFiles } from './pi-session-files.ts';
import { piTranslator } from './pi-translator.ts';

/**
 * Mario Zechner's pi coding agent, headless: `pi --mode rpc`, the prompt and users' messages mid-run
 * as commands on stdin (`pi --mode json --print` when files are attached; pi-plan.ts).
 */
export const piAdapter = defineCliAdapter({
  id: 'pi',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['bash'], write_file: ['write', 'edit'], read_file: ['read'] },
  displayName: 'Pi',
  // True to `pi` 0.73.1 as recorded live (src/adapters/agents/pi/README.md).
  capabilities: {
    resume: true,
    fork: true,
    thinking: 'model-dependent',
    // pi has no MCP client (by design): a generated extension bridges the run's MCP server, registers
    // its tools and relays `ask` decisions to its `approval_prompt` tool (pi-bridge-extension.ts).
    mcp: true,
    approvals: 'relay',
    sessionPersistence: 'file',
    streaming: 'full',
    // RPC mode's `prompt` with `streamingBehavior: "steer"`, taken before the next model request.
    steering: true,
  },
  program: {
    command: 'pi',
    minVersion: '0.70.0',
    npmPackage: '@mariozechner/pi-coding-agent',
    testedVersion: '0.73.1',
    verifiedLive: true,
  },
  secretEnv: PI_KEY_ENV,
  // It reads nothing from the repository beyond the common set (checked against the CLI).
  keyInputs: { 'openrouter-api-key': 'OPENROUTER_API_KEY' },
  readsFromRepository: [],
  // `--no-builtin-tools` with the bridge extension: the run's MCP tools are its only ones (pi-plan.ts).
  callerTools: 'mcp',
  sessionDir: () => join(homedir(), '.pi', 'agent', 'sessions'),
  sessionFiles: piSessionFiles,
  detectAuth: (env) =>
    detectPiStyleAuth(
      { agentDir: piAgentDir(env), keyEnv: PI_KEY_ENV, modelFiles: ['models.json'], authFile: 'auth.json' },
      env,
    ),
  plan: (ctx, { command }) => piPlan(ctx, { command, thinking: piThinking }),
  translator: piTranslator,
  // Answers extensions' dialogs in RPC mode, which would otherwise wait for a user (pi-rpc.ts).
  controller: piRpcController,
});
