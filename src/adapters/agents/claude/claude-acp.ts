import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Adapter } from '../../../core/adapter/index.ts';
import { builtinAcpAdapter } from '../../protocols/acp/builtin-acp-adapter.ts';
import { CLAUDE_KEY_INPUTS, CLAUDE_SECRET_ENV, detectClaudeAuth } from './claude-auth.ts';
import { claudeSessionFiles } from './claude-session-files.ts';

/** The Claude Agent SDK's ACP launcher on npm. */
export const CLAUDE_ACP_NPM_PACKAGE = '@agentclientprotocol/claude-agent-acp';
/** The claude-agent-acp version recorded live. */
export const CLAUDE_ACP_TESTED_VERSION = '0.101.0';

export interface ClaudeAcpAdapterOptions {
  /** The launcher's executable (default `claude-agent-acp`). */
  command?: string;
}

/**
 * Claude Code over ACP through `@agentclientprotocol/claude-agent-acp` (the Claude Agent SDK): its
 * permission prompts (`default` mode unless the user's settings say otherwise) arrive as
 * `session/request_permission`. It runs `CLAUDE_CODE_EXECUTABLE` when set, else the SDK's own
 * platform binary (an optional dependency, ~157 MB). Configuration is Claude Code's own
 * (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `~/.claude/settings.json`).
 */
export function claudeAcpAdapter(options: ClaudeAcpAdapterOptions = {}): Adapter {
  return builtinAcpAdapter({
    id: 'claude-acp',
    displayName: 'Claude Code (ACP)',
    command: options.command ?? 'claude-agent-acp',
    costModel: 'anthropic/claude-sonnet-4-5',
    secretEnv: CLAUDE_SECRET_ENV,
    npmPackage: CLAUDE_ACP_NPM_PACKAGE,
    testedVersion: CLAUDE_ACP_TESTED_VERSION,
    sessionDir: join(homedir(), '.claude', 'projects'),
    // claude-agent-acp drives Claude Code, which keeps its sessions where it always does.
    sessionFiles: claudeSessionFiles,
    readsFromRepository: [],
    keyInputs: CLAUDE_KEY_INPUTS,
    detectAuth: detectClaudeAuth,
  });
}
