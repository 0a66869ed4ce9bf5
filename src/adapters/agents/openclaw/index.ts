export { openclawAdapter } from './openclaw-adapter.ts';
export { openclawTranslator } from './openclaw-translator.ts';
