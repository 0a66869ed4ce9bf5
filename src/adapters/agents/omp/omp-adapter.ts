import { homedir } from 'node:os';
import { join } from 'node:path';
import { defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectPiStyleAuth, PI_KEY_ENV } from '../pi/pi-auth.ts';
import { piRpcController } from '../pi/pi-rpc.ts';
import { ompPlan } from './omp-plan.ts';
import { ompSessionFiles } from './omp-session-files.ts';
import { ompTranslator } from './omp-translator.ts';

/** 18.3.4 (latest) does not install: its dependency @oh-my-pi/omp-stats@18.3.4 is not published. */
const OMP_TESTED_VERSION = '18.2.3';

/** Extra key variables omp reads on top of pi's (`omp --help`). */
export const OMP_KEY_ENV = [
  ...PI_KEY_ENV,
  'COPILOT_GITHUB_TOKEN',
  'KILO_API_KEY',
  'ANTHROPIC_FOUNDRY_API_KEY',
] as const;

/**
 * oh-my-pi, a fork of pi: `omp --mode rpc`, the prompt and users' messages mid-run as commands on
 * stdin, as for pi (`--mode json --print` when files are attached; omp-plan.ts).
 */
export const ompAdapter = defineCliAdapter({
  id: 'omp',
  // The policy's `shell`, `write_file`, `read_file` as this agent's own tools (policy-for-agent.ts).
  toolNames: { shell: ['bash'], write_file: ['write', 'edit', 'ast_edit'], read_file: ['read'] },
  displayName: 'omp (oh-my-pi)',
  // True to omp 18.2.3 as recorded live (src/adapters/agents/omp/README.md).
  capabilities: {
    resume: true,
    fork: true,
    // omp accepts every `--thinking` level whatever the model.
    thinking: 'yes',
    // omp's own MCP client reads servers only from config files (no per-run flag): the run's server is
    // bridged by pi's generated extension instead, which also relays `ask` to `approval_prompt`.
    mcp: true,
    approvals: 'relay',
    sessionPersistence: 'file',
    streaming: 'full',
    // RPC mode's `prompt` with `streamingBehavior: "steer"`, as pi's (omp backgrounds a running
    // shell command to take it at once).
    steering: true,
  },
  program: {
    command: 'omp',
    minVersion: '18.0.0',
    npmPackage: '@oh-my-pi/pi-coding-agent',
    npmInstall: {
      version: OMP_TESTED_VERSION,
      notes: 'runs on Bun (>= 1.3.14): `npm install -g bun` or https://bun.sh',
    },
    testedVersion: OMP_TESTED_VERSION,
    verifiedLive: true,
  },
  secretEnv: OMP_KEY_ENV,
  // It reads nothing from the repository beyond the common set (checked against the CLI).
  keyInputs: { 'openrouter-api-key': 'OPENROUTER_API_KEY' },
  readsFromRepository: [],
  sessionDir: () => join(homedir(), '.omp', 'agent', 'sessions'),
  sessionFiles: ompSessionFiles,
  detectAuth: (env) =>
    detectPiStyleAuth(
      {
        agentDir: env.PI_CODING_AGENT_DIR || join(env.HOME || homedir(), '.omp', 'agent'),
        keyEnv: OMP_KEY_ENV,
        modelFiles: ['models.yml', 'models.yaml', 'models.json'],
        opaqueStore: 'agent.db',
      },
      env,
    ),
  plan: ompPlan,
  translator: ompTranslator,
  // Answers extensions' dialogs in RPC mode, which would otherwise wait for a user (pi-rpc.ts).
  controller: piRpcController,
});
