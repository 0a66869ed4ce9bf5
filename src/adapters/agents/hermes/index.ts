export { hermesAdapter } from './hermes-adapter.ts';
export { hermesTranslator } from './hermes-translator.ts';
