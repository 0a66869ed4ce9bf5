export * from './clock.ts';
export * from './write-budget.ts';
export * from './write-coalescer.ts';
