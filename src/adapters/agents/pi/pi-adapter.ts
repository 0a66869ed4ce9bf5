import { homedir } from 'node:os';
import { join } from 'node:path';
import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { detectPiStyleAuth, PI_KEY_ENV, piAgentDir } from './pi-auth.ts';
import { piPlan, piThinking } from './pi-plan.ts';
import { piTranslator } from './pi-translator.ts';

/** pi's npm package. */
export const PI_NPM_PACKAGE = '@mariozechner/pi-coding-agent';
/** The pi version recorded live. */
export const PI_TESTED_VERSION = '0.73.1';

/** The options of {@link piAdapter}: `command`, the executable (default `pi`). */
export interface PiAdapterOptions extends CliAdapterOptions {}

/** Mario Zechner's pi coding agent, headless: `pi --mode json --print`, prompt on stdin. */
export const piAdapter = defineCliAdapter<PiAdapterOptions>({
  id: 'pi',
  displayName: 'Pi',
  // True to `pi` 0.73.1 as recorded live (docs/adapters/pi.md).
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
  },
  program: {
    command: 'pi',
    minVersion: '0.70.0',
    npmPackage: PI_NPM_PACKAGE,
    testedVersion: PI_TESTED_VERSION,
    verifiedLive: true,
  },
  secretEnv: PI_KEY_ENV,
  sessionDir: () => join(homedir(), '.pi', 'agent', 'sessions'),
  detectAuth: (env) =>
    detectPiStyleAuth(
      { agentDir: piAgentDir(env), keyEnv: PI_KEY_ENV, modelFiles: ['models.json'], authFile: 'auth.json' },
      env,
    ),
  plan: (ctx, { command }) => piPlan(ctx, { command, thinking: piThinking }),
  translator: piTranslator,
});
