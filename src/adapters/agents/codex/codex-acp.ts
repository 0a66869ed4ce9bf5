import { join } from 'node:path';
import type { Adapter } from '../../../core/adapter/index.ts';
import { builtinAcpAdapter } from '../../protocols/acp/builtin-acp-adapter.ts';
import { CODEX_TESTED_VERSION } from './codex-adapter.ts';
import { codexHome, detectCodexAuth } from './codex-auth.ts';
import { CODEX_SANDBOX_PROBE } from './codex-plan.ts';
import { codexSessionFiles } from './codex-session-files.ts';
import { codexSessionLog } from './codex-session-log.ts';

/**
 * Codex's sandbox probe (`codex sandbox -- true`) for the Codex codex-acp runs: `CODEX_PATH`, else the
 * `@openai/codex` installed with the launcher (nested in its package or beside it), else `codex` on
 * PATH. Where none is found nothing is probed (exit 0): no warning made up.
 */
export const CODEX_ACP_SANDBOX_PROBE = {
  command: 'sh',
  args: [
    '-c',
    [
      'launcher=$(command -v codex-acp) && pkg=$(dirname "$(readlink -f "$launcher")")/..',
      'for c in "$CODEX_PATH" "$pkg/node_modules/@openai/codex/bin/codex.js" "$pkg/../../@openai/codex/bin/codex.js" "$(command -v codex)"; do',
      '  if [ -n "$c" ] && [ -e "$c" ]; then exec "$c" sandbox -- true; fi',
      'done',
      'exit 0',
    ].join('\n'),
  ],
  what: CODEX_SANDBOX_PROBE.what,
  fix: CODEX_SANDBOX_PROBE.fix,
} as const;

/** codex-acp's npm package. */
export const CODEX_ACP_NPM_PACKAGE = '@agentclientprotocol/codex-acp';
/** The codex-acp version recorded live. */
export const CODEX_ACP_TESTED_VERSION = '2.6.0';

/**
 * codex-acp's session modes (`INITIAL_AGENT_MODE`): `read-only` and `workspace-write` ask the user
 * (approval policy `on-request`, reviewer `user`); `agent` (codex-acp's default) lets Codex's own
 * reviewer decide; `agent-full-access` never asks.
 */
export type CodexAcpMode = 'read-only' | 'workspace-write' | 'agent' | 'agent-full-access';

export interface CodexAcpAdapterOptions {
  /** The launcher's executable (default `codex-acp`). */
  command?: string;
  /** The mode a session starts in (default `read-only`: every write or network use is asked). */
  mode?: CodexAcpMode;
}

/**
 * OpenAI's Codex over ACP through `@agentclientprotocol/codex-acp`, which starts `codex app-server`
 * (its bundled `@openai/codex`, or `CODEX_PATH`). Unlike `codex exec`, Codex can ask here: its
 * approval requests arrive as `session/request_permission` and go to the run's approval channel.
 * Configuration (model provider, keys) is Codex's own: `CODEX_HOME/config.toml`, `OPENAI_API_KEY`.
 */
export function codexAcpAdapter(options: CodexAcpAdapterOptions = {}): Adapter {
  return builtinAcpAdapter({
    id: 'codex-acp',
    displayName: 'Codex (ACP)',
    command: options.command ?? 'codex-acp',
    env: { INITIAL_AGENT_MODE: options.mode ?? 'read-only', NO_BROWSER: '1' },
    costModel: 'openai/gpt-5-codex',
    secretEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
    npmPackage: CODEX_ACP_NPM_PACKAGE,
    testedVersion: CODEX_ACP_TESTED_VERSION,
    // codex-acp 2.6.0 depends on @openai/codex ^0.166.0; the Codex recorded and verified with it is
    // 0.169.0. Overriding the dependency installs one Codex (its platform binary is ~400 MB), not two.
    npmOverrides: { '@openai/codex': CODEX_TESTED_VERSION },
    sessionDir: join(codexHome(process.env), 'sessions'),
    // codex-acp starts `codex app-server`: Codex's own rollout files.
    sessionFiles: codexSessionFiles,
    readsFromRepository: [],
    keyInputs: { 'openai-api-key': 'OPENAI_API_KEY' },
    detectAuth: detectCodexAuth,
    sessionLog: codexSessionLog,
    // Every mode but full access runs Codex's commands in its sandbox: probe it as Codex runs it.
    ...(options.mode === 'agent-full-access' ? {} : { sandboxProbe: CODEX_ACP_SANDBOX_PROBE }),
  });
}
