export * from './agent-event.ts';
export * from './error-events.ts';
export * from './event-base.ts';
export * from './log-draft.ts';
export * from './message-events.ts';
export * from './run-events.ts';
export * from './session-events.ts';
export * from './tool-events.ts';
