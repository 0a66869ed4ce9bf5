export { type HermesAdapterOptions, hermesAdapter, hermesCapabilities } from './hermes-adapter.ts';
export { hermesTranslator } from './hermes-translator.ts';
