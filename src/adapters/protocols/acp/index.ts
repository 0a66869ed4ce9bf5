export { type AcpAdapterExtras, type AcpOptions, acpAdapter, acpCapabilities } from './acp-adapter.ts';
export { type AcpControllerOptions, acpController } from './acp-controller.ts';
export { type AcpMessage, decodeAcpMessage } from './acp-message.ts';
export { pickOption } from './acp-permission.ts';
export { acpTranslator } from './acp-translator.ts';
export type { AcpTranslatorState } from './acp-translator-state.ts';
export {
  CLAUDE_ACP_NPM_PACKAGE,
  CLAUDE_ACP_TESTED_VERSION,
  type ClaudeAcpAdapterOptions,
  claudeAcpAdapter,
} from './agents/claude-acp.ts';
export {
  CODEX_ACP_NPM_PACKAGE,
  CODEX_ACP_TESTED_VERSION,
  type CodexAcpAdapterOptions,
  type CodexAcpMode,
  codexAcpAdapter,
} from './agents/codex-acp.ts';
export { type CopilotAcpAdapterOptions, copilotAcpAdapter } from './agents/copilot-acp.ts';
export { type GeminiAcpAdapterOptions, geminiAcpAdapter } from './agents/gemini-acp.ts';
export { type OmpAcpAdapterOptions, ompAcpAdapter } from './agents/omp-acp.ts';
export { kiloAcpAdapter, type OpenCodeAcpAdapterOptions, opencodeAcpAdapter } from './agents/opencode-acp.ts';
export { type QwenAcpAdapterOptions, qwenAcpAdapter } from './agents/qwen-acp.ts';
