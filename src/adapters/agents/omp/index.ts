export { ompAdapter } from './omp-adapter.ts';
export { ompTranslator } from './omp-translator.ts';
