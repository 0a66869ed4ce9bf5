export * from './approval-prompt-tool.ts';
export * from './create-mcp-session-server.ts';
export * from './mcp-server-error.ts';
export * from './start-mcp-server.ts';
