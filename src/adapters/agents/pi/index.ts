export { piAdapter } from './pi-adapter.ts';
export { createPiTranslator, type PiTranslatorState, piTranslator } from './pi-translator.ts';
