import { type CliAdapterOptions, defineCliAdapter } from '../../shared/define-cli-adapter.ts';
import { OPENCODE_PROGRAM } from '../opencode/opencode-adapter.ts';
import { detectOpenCodeAuth, openCodeDataDir, openCodeProviderKeyEnv } from '../opencode/opencode-auth.ts';
import { openOpenCodeHttpSession } from './opencode-http-session.ts';

/** The options of {@link opencodeHttpAdapter}. */
export interface OpenCodeHttpAdapterOptions extends CliAdapterOptions {
  /** The executable (default `opencode`). */
  command?: string;
  /** How long `opencode serve` may take to become healthy. Default 60 s. */
  startupTimeoutMs?: number;
  /** How long a permission question may wait. Default 10 min. */
  approvalTimeoutMs?: number;
  /** Receives each raw `data:` of the server's `GET /event` stream (the live recorder uses it). */
  onRawEvent?: (data: string) => void;
}

/** OpenCode driven through a private `opencode serve` and its HTTP API, with live approvals. */
export const opencodeHttpAdapter = defineCliAdapter<OpenCodeHttpAdapterOptions>({
  id: 'opencode-http',
  displayName: 'OpenCode (HTTP server)',
  // True to `opencode serve` 1.18.33 driven over its HTTP API (src/adapters/agents/opencode-http/README.md).
  capabilities: {
    resume: false,
    fork: false,
    thinking: 'model-dependent',
    mcp: true,
    // `permission.asked` events are relayed to the run's approval channel and answered over HTTP.
    approvals: 'relay',
    sessionPersistence: 'sqlite',
    // `message.part.delta` streams text and reasoning token by token.
    streaming: 'full',
  },
  program: OPENCODE_PROGRAM,
  costModel: undefined,
  secretEnv: ['OPENCODE_API_KEY', 'OPENCODE_SERVER_PASSWORD', ...openCodeProviderKeyEnv],
  // It works on its server's checkout, not this one.
  readsFromRepository: [],
  sessionDir: (env) => openCodeDataDir('opencode', env),
  detectAuth: detectOpenCodeAuth,
  open: (ctx, { command, startupTimeoutMs, approvalTimeoutMs, onRawEvent }) =>
    openOpenCodeHttpSession(ctx, { command, startupTimeoutMs, approvalTimeoutMs, onRawEvent }),
});
