import type { SessionContext } from '../../../core/adapter/index.ts';
import type { ChatSseAdapterConfig } from '../../../core/config/adapter-config-schema.ts';
import { type ChatSsePermissions, chatSsePermissions } from './chat-sse-permissions.ts';

/** Fields of llm-gateway's `ChatRequest` the configuration has no place for yet. */
export interface ChatSseExtras {
  /** `agent` (default): the tool-using agent loop; `rlm`: the Reasoning Loop Mode (REPL). */
  mode?: 'agent' | 'rlm';
  /** RLM iterations (the server's default: 100). A run's `maxTurns` takes precedence. */
  maxIterations?: number;
  /** RLM recursion depth of sub-agents (the server's default: 4). */
  maxDepth?: number;
  /** Extra text the server injects into the agent's system prompt. */
  context?: string;
  /** How long an approval question may stay open before it counts as denied. Default 15 minutes. */
  approvalTimeoutMs?: number;
}

export type ChatSseOptions = ChatSseAdapterConfig & ChatSseExtras;

/** The JSON body of `POST /chat` (llm-gateway `server/index.ts`, `ChatRequest`). */
export interface ChatSseRequestBody {
  model?: string;
  messages: Array<{ role: 'system' | 'user'; content: string }>;
  context?: string;
  permissions?: ChatSsePermissions;
  mode: 'agent' | 'rlm';
  maxIterations?: number;
  maxDepth?: number;
}

export function chatSseRequestBody(ctx: SessionContext, options: ChatSseOptions): ChatSseRequestBody {
  const { request } = ctx;
  const model = request.model ?? options.model;
  const permissions = chatSsePermissions(ctx.policy);
  const maxIterations = request.maxTurns ?? options.maxIterations;
  const messages: ChatSseRequestBody['messages'] = [];
  if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
  messages.push({ role: 'user', content: request.prompt });
  return {
    ...(model === undefined ? {} : { model }),
    messages,
    ...(options.context === undefined ? {} : { context: options.context }),
    ...(permissions === undefined ? {} : { permissions }),
    mode: options.mode ?? 'agent',
    ...(maxIterations === undefined ? {} : { maxIterations }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
  };
}

/** `{baseUrl}/{path}`, whatever trailing slashes the base URL has. */
export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

/**
 * The `Authorization` header the configured auth asks for, or why there is none. mTLS needs a
 * client certificate, which `fetch` cannot present: it is refused with a clear message.
 */
export function authHeaders(
  auth: ChatSseAdapterConfig['auth'],
  env: Readonly<Record<string, string | undefined>>,
): { headers: Record<string, string> } | { error: string } {
  if (auth.type === 'none') return { headers: {} };
  if (auth.type === 'mtls') {
    return { error: 'the chat-sse adapter does not support mTLS; use bearer auth or none' };
  }
  const token = env[auth.tokenEnv];
  if (!token)
    return { error: `bearer auth needs a token in the environment variable ${auth.tokenEnv}, which is not set` };
  return { headers: { authorization: `Bearer ${token}` } };
}
