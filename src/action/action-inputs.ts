import { isNeverAgentEnv } from '../core/env/agent-environment.ts';
import { AgentMuxError } from '../core/errors/agent-mux-error.ts';
import { apiKeyInputs } from './api-key-inputs.ts';
import type { FenceMode } from './runner-fence.ts';

/** Every input the Action reads; `action.yml` declares exactly these (a test checks it). */
export const ACTION_INPUTS = [
  'github-token',
  'agent',
  'prompt',
  'trigger-phrase',
  'config-path',
  'timeout-minutes',
  'allowed-bots',
  'approval-timeout-minutes',
  'agent-version',
  'bot-login',
  'poll-interval-seconds',
  'fence',
  'model',
  'instructions',
  'agent-env',
  ...Object.keys(apiKeyInputs()),
];

export interface ActionInputs {
  githubToken: string;
  agent: string | undefined;
  prompt: string | undefined;
  triggerPhrase: string | undefined;
  configPath: string;
  timeoutMs: number | undefined;
  allowedBots: string[] | undefined;
  approvalTimeoutMs: number | undefined;
  agentVersion: string | undefined;
  /** Logins agent-mux posts as (its comments never trigger). */
  botLogin: string;
  pollIntervalMs: number;
  /** How the agent is fenced: `auto` (default; fail closed without a working fence) or `off`. */
  fence: FenceMode;
  /** Environment variable → key, for the inputs that were given. */
  apiKeys: Record<string, string>;
  /** The model, over the repository config's. */
  model: string | undefined;
  /** Instructions added to every run's prompt. */
  instructions: string | undefined;
  /** More variables of the step's environment the agent gets (cloud credentials for Bedrock or Vertex). */
  agentEnv: string[];
}

/** An input with a bad value: names the input. */
export class ActionInputError extends AgentMuxError {
  readonly input: string;
  constructor(input: string, message: string) {
    super('action_input_invalid', `input ${input}: ${message}`);
    this.name = 'ActionInputError';
    this.input = input;
  }
  static override isInstance(error: unknown): error is ActionInputError {
    return AgentMuxError.isInstance(error) && error.code === 'action_input_invalid';
  }
}

/** A number input: its unit and the largest value it takes. */
interface NumberInput {
  unit: string;
  max: number;
}
const MINUTES: NumberInput = { unit: 'minutes', max: 24 * 60 };
const SECONDS: NumberInput = { unit: 'seconds', max: 3600 };
/** A plain decimal number: no sign, exponent, hex or `Infinity`. */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** Reads and checks the Action's inputs (`core.getInput` in production; a map in tests). */
export function readActionInputs(getInput: (name: string) => string): ActionInputs {
  const text = (name: string): string | undefined => getInput(name).trim() || undefined;
  const number = (name: string, kind: NumberInput): number | undefined => {
    const raw = text(name);
    if (raw === undefined) return undefined;
    const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
    if (!(value > 0 && value <= kind.max)) {
      throw new ActionInputError(
        name,
        `${JSON.stringify(raw)} is not a number of ${kind.unit} (expected a number greater than 0 and at most ${kind.max})`,
      );
    }
    return value;
  };
  const githubToken = text('github-token');
  if (!githubToken) throw new ActionInputError('github-token', 'is required (the default is ${{ github.token }})');
  const apiKeys: Record<string, string> = {};
  for (const [input, envName] of Object.entries(apiKeyInputs())) {
    const value = text(input);
    if (value) apiKeys[envName] = value;
  }
  const timeout = number('timeout-minutes', MINUTES);
  const approvalTimeout = number('approval-timeout-minutes', MINUTES);
  const bots = text('allowed-bots');
  const fence = text('fence') ?? 'auto';
  if (fence !== 'auto' && fence !== 'off') {
    throw new ActionInputError('fence', `${JSON.stringify(fence)} is not auto or off`);
  }
  const agentEnv = (text('agent-env') ?? '').split(/[\s,]+/).filter(Boolean);
  for (const name of agentEnv) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new ActionInputError('agent-env', `${JSON.stringify(name)} is not an environment variable name`);
    }
    if (isNeverAgentEnv(name)) {
      throw new ActionInputError(
        'agent-env',
        `${name} is never given to an agent (agent-mux's own credentials and the runner's internals)`,
      );
    }
  }
  return {
    githubToken,
    agent: text('agent'),
    prompt: text('prompt'),
    triggerPhrase: text('trigger-phrase'),
    configPath: text('config-path') ?? '.github/agent-mux.yml',
    timeoutMs: timeout === undefined ? undefined : timeout * 60_000,
    allowedBots: bots === undefined ? undefined : bots.split(/[\s,]+/).filter(Boolean),
    approvalTimeoutMs: approvalTimeout === undefined ? undefined : approvalTimeout * 60_000,
    agentVersion: text('agent-version'),
    botLogin: text('bot-login') ?? 'github-actions[bot]',
    pollIntervalMs: (number('poll-interval-seconds', SECONDS) ?? 5) * 1000,
    fence,
    apiKeys,
    model: text('model'),
    // Several lines are kept as written (only the ends trimmed).
    instructions: text('instructions'),
    agentEnv,
  };
}
