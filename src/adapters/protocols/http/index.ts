export * from './http-adapter.ts';
export * from './http-request.ts';
export * from './remote-http-error.ts';
export * from './session-pool.ts';
