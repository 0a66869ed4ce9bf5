export { hermesAcpTranslator } from './hermes-acp-translator.ts';
export { HERMES_TESTED_VERSION, type HermesAdapterOptions, hermesAdapter } from './hermes-adapter.ts';
