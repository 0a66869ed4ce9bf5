export * from './adapter-registry.ts';
