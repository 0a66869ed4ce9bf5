export { chatSseAdapter } from './chat-sse-adapter.ts';
export type { ChatSsePermissions, ChatSseToolPermission } from './chat-sse-permissions.ts';
export { chatSsePermissions } from './chat-sse-permissions.ts';
export type { ChatSseExtras, ChatSseOptions, ChatSseRequestBody } from './chat-sse-request.ts';
export { chatSseRequestBody } from './chat-sse-request.ts';
export type { ChatSseRecord, ChatSseRelay, ChatSseState } from './chat-sse-translator.ts';
export { initialChatSseState, translateChatSse } from './chat-sse-translator.ts';
