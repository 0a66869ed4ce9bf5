export * from './adapter.ts';
export * from './capabilities.ts';
