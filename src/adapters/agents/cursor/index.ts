export { cursorAdapter } from './cursor-adapter.ts';
export { cursorTranslator } from './cursor-translator.ts';
