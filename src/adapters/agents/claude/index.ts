import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { claudeAdapter } from './claude-adapter.ts';

export {
  CLAUDE_ACP_NPM_PACKAGE,
  CLAUDE_ACP_TESTED_VERSION,
  type ClaudeAcpAdapterOptions,
  claudeAcpAdapter,
} from './claude-acp.ts';
export { claudeAdapter } from './claude-adapter.ts';
export { detectClaudeAuth } from './claude-auth.ts';
export { claudePermissionArgs, claudePlan, claudeThinking } from './claude-plan.ts';
export { type ClaudeTranslatorState, claudeTranslator } from './claude-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [claudeAdapter],
  catalog: { permissions: '`--permission-prompt-tool` → approval channel', mcp: 'yes' },
  keyInputDescriptions: {
    'claude-code-oauth-token':
      'For Claude Code with a Claude Pro or Max subscription instead of an API key (CLAUDE_CODE_OAUTH_TOKEN, made with `claude setup-token`). Pass it from a secret.',
  },
});
