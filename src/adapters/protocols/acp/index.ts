export { type AcpAdapterExtras, type AcpOptions, acpAdapter, acpCapabilities } from './acp-adapter.ts';
export { type AcpControllerOptions, acpController } from './acp-controller.ts';
export { type AcpMessage, decodeAcpMessage } from './acp-message.ts';
export { pickOption } from './acp-permission.ts';
export { acpTranslator } from './acp-translator.ts';
export type { AcpTranslatorState } from './acp-translator-state.ts';
