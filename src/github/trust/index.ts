export * from './authorize-actor.ts';
export * from './is-own-login.ts';
