export * from './adapter-not-found-error.ts';
export * from './agent-mux-error.ts';
export * from './config-error.ts';
export * from './fence-network-error.ts';
export * from './run-limit-error.ts';
export * from './spawn-error.ts';
export * from './template-error.ts';
