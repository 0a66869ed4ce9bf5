export * from './authorize-actor.ts';
export * from './sanitize-text.ts';
export * from './untrusted-prompt.ts';
