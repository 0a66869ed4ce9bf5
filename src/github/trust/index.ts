export * from './authorize-actor.ts';
export * from './escape-angle-brackets.ts';
export * from './html-void-elements.ts';
export * from './is-own-login.ts';
export * from './sanitize-text.ts';
export * from './untrusted-prompt.ts';
