import type { ServerResponse } from 'node:http';
import { chunks, type Reply, type ToolInfo, usage } from './script.ts';
import { sendJson, sendSse, startSse } from './sse.ts';

interface ChatRequest {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: { type: string; function?: { name: string; parameters?: Record<string, unknown> } }[];
  messages?: { role: string }[];
}

export function chatTools(body: ChatRequest): ToolInfo[] {
  return (body.tools ?? []).flatMap((t) =>
    t.function ? [{ name: t.function.name, schema: t.function.parameters }] : [],
  );
}

/** A tool message after the model's last turn (CLIs may append their own messages after it). */
export function chatHasToolResult(body: ChatRequest): boolean {
  const roles = (body.messages ?? []).map((m) => m.role);
  return roles.slice(roles.lastIndexOf('assistant') + 1).includes('tool');
}

/** Every tool result in the conversation, in order, as text. */
export function chatToolOutputs(body: ChatRequest): string[] {
  return (body.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => {
      const content = (m as { content?: unknown }).content;
      return typeof content === 'string' ? content : JSON.stringify(content ?? '');
    });
}

export function openaiError(res: ServerResponse, status: 401 | 429): void {
  const error =
    status === 401
      ? {
          message: 'Incorrect API key provided: fake-key.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        }
      : {
          message: 'Rate limit reached for requests. Please try again in 1s.',
          type: 'requests',
          param: null,
          code: 'rate_limit_exceeded',
        };
  sendJson(res, status, { error }, status === 429 ? { 'retry-after': '1', 'retry-after-ms': '1000' } : {});
}

/** OpenAI Chat Completions: POST /v1/chat/completions, streamed as data-only SSE ending in [DONE]. */
export function replyChat(res: ServerResponse, body: ChatRequest, reply: Reply): void {
  if (reply.kind === 'error') {
    openaiError(res, reply.status);
    return;
  }
  const id = `chatcmpl-fake-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'gpt-fake';
  const usageBlock = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
  };
  const toolCall =
    reply.kind === 'tool'
      ? { id: reply.callId, type: 'function', function: { name: reply.name, arguments: JSON.stringify(reply.args) } }
      : undefined;
  if (!body.stream) {
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message:
            reply.kind === 'text'
              ? { role: 'assistant', content: reply.text }
              : { role: 'assistant', content: null, tool_calls: [toolCall] },
          finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls',
        },
      ],
      usage: usageBlock,
    });
    return;
  }
  const chunk = (delta: unknown, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  startSse(res);
  sendSse(res, chunk({ role: 'assistant', content: '' }));
  if (reply.kind === 'text') {
    for (const piece of chunks(reply.text)) sendSse(res, chunk({ content: piece }));
    sendSse(res, chunk({}, 'stop'));
  } else {
    const args = JSON.stringify(reply.args);
    sendSse(
      res,
      chunk({
        tool_calls: [{ index: 0, id: reply.callId, type: 'function', function: { name: reply.name, arguments: '' } }],
      }),
    );
    sendSse(res, chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }));
    sendSse(res, chunk({}, 'tool_calls'));
  }
  sendSse(res, { id, object: 'chat.completion.chunk', created, model, choices: [], usage: usageBlock });
  sendSse(res, '[DONE]');
  res.end();
}
