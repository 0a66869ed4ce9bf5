export * from './escape-angle-brackets.ts';
export * from './html-void-elements.ts';
export * from './sanitize-text.ts';
export * from './untrusted-prompt.ts';
