import { join } from 'node:path';
import type { Adapter } from '../../../../core/adapter/index.ts';
import { CODEX_TESTED_VERSION } from '../../../agents/codex/codex-adapter.ts';
import { codexHome, detectCodexAuth } from '../../../agents/codex/codex-auth.ts';
import { codexSessionLog } from '../../../agents/codex/codex-session-log.ts';
import { builtinAcpAdapter } from './builtin-acp-adapter.ts';

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
    detectAuth: detectCodexAuth,
    sessionLog: codexSessionLog,
  });
}
