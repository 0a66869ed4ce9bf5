export { cursorAdapter, cursorCapabilities } from './cursor-adapter.ts';
export { cursorTranslator } from './cursor-translator.ts';
