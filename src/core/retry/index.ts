export * from './retry-policy.ts';
