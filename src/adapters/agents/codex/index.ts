import { defineBuiltinAdapters } from '../../shared/builtin-adapters.ts';
import { codexAcpAdapter } from './codex-acp.ts';
import { codexAdapter } from './codex-adapter.ts';

export {
  CODEX_ACP_NPM_PACKAGE,
  CODEX_ACP_TESTED_VERSION,
  type CodexAcpAdapterOptions,
  type CodexAcpMode,
  codexAcpAdapter,
} from './codex-acp.ts';
export { type CodexAdapterOptions, codexAdapter } from './codex-adapter.ts';
export { detectCodexAuth } from './codex-auth.ts';
export { type CodexSandboxMode, codexPermissions, codexPlan } from './codex-plan.ts';
export { type CodexTranslatorState, codexTranslator } from './codex-translator.ts';

/** What this folder adds to the built-in registry (read by `npm run generate`). */
export const builtin = defineBuiltinAdapters({
  adapters: [codexAdapter, codexAcpAdapter],
  catalog: { permissions: 'sandbox / tool flags', mcp: 'yes' },
});
