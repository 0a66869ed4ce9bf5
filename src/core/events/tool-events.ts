import { z } from 'zod';
import { defineEvent } from './event-base.ts';

export const toolCallStartEvent = defineEvent('tool_call_start', {
  toolCallId: z.string(),
  toolName: z.string(),
});
export const toolInputDeltaEvent = defineEvent('tool_input_delta', {
  toolCallId: z.string(),
  delta: z.string(),
});
export const toolCallReadyEvent = defineEvent('tool_call_ready', {
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
});
export const toolResultEvent = defineEvent('tool_result', {
  toolCallId: z.string(),
  toolName: z.string().optional(),
  output: z.unknown(),
  isError: z.boolean(),
  durationMs: z.number().nonnegative().optional(),
});
export const mcpToolCallStartEvent = defineEvent('mcp_tool_call_start', {
  toolCallId: z.string(),
  server: z.string(),
  toolName: z.string(),
  input: z.unknown(),
});
export const mcpToolResultEvent = defineEvent('mcp_tool_result', {
  toolCallId: z.string(),
  server: z.string(),
  toolName: z.string(),
  output: z.unknown(),
  isError: z.boolean(),
});
export const skillLoadedEvent = defineEvent('skill_loaded', {
  name: z.string(),
  source: z.string().optional(),
});
export const skillInvokedEvent = defineEvent('skill_invoked', {
  name: z.string(),
  input: z.unknown().optional(),
});
export const pluginLoadedEvent = defineEvent('plugin_loaded', {
  pluginId: z.string(),
  version: z.string().optional(),
});
export const pluginInvokedEvent = defineEvent('plugin_invoked', {
  pluginId: z.string(),
  action: z.string().optional(),
  input: z.unknown().optional(),
});
export const approvalRequestEvent = defineEvent('approval_request', {
  approvalId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  reason: z.string().optional(),
  toolCallId: z.string().optional(),
});
export const approvalGrantedEvent = defineEvent('approval_granted', {
  approvalId: z.string(),
  scope: z.enum(['once', 'always']),
  by: z.string().optional(),
});
export const approvalDeniedEvent = defineEvent('approval_denied', {
  approvalId: z.string(),
  reason: z.string(),
  by: z.string().optional(),
  timedOut: z.boolean().optional(),
});
