export { type OpenclawAdapterOptions, openclawAdapter, openclawCapabilities } from './openclaw-adapter.ts';
export { openclawTranslator } from './openclaw-translator.ts';
