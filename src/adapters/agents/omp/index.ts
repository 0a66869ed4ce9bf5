export { type OmpAdapterOptions, ompAdapter, ompCapabilities } from './omp-adapter.ts';
export { ompTranslator } from './omp-translator.ts';
