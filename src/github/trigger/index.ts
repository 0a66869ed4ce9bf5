export * from './mask-unrendered.ts';
export * from './parse-command.ts';
export * from './payload-schemas.ts';
export * from './read-approval-event.ts';
export * from './read-trigger-event.ts';
export * from './trigger-event.ts';
export * from './trigger-payload-error.ts';
