// The library entry: the adapter core for programs that embed agent-mux.

export * from './adapters/agents/demo/demo-adapter.ts';
export * from './adapters/builtin-registry.ts';
export * from './adapters/protocols/process/process-adapter.ts';
export * from './core/adapter/index.ts';
export * from './core/config/index.ts';
export * from './core/cost/index.ts';
export * from './core/errors/index.ts';
export * from './core/events/index.ts';
export * from './core/redact/index.ts';
export * from './core/registry/index.ts';
export * from './core/retry/index.ts';
export * from './core/run/replay-stream.ts';
export * from './core/run/run-options.ts';
export * from './core/run/start-run.ts';
export * from './core/tools/index.ts';
