export * from './adapter.ts';
export * from './capabilities.ts';
export * from './detect-program.ts';
export * from './session-files.ts';
