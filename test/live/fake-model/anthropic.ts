import type { ServerResponse } from 'node:http';
import { chunks, type Reply, type ToolInfo, usage } from './script.ts';
import { sendJson, sendSse, startSse } from './sse.ts';

interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: { name: string; input_schema?: Record<string, unknown> }[];
  messages?: { role: string; content: unknown }[];
}

export function anthropicTools(body: MessagesRequest): ToolInfo[] {
  return (body.tools ?? []).map((t) => ({ name: t.name, schema: t.input_schema }));
}

/** A tool result after the model's last turn (CLIs may append their own messages after it). */
export function anthropicHasToolResult(body: MessagesRequest): boolean {
  const messages = body.messages ?? [];
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  return messages
    .slice(lastAssistant + 1)
    .some((m) => Array.isArray(m.content) && m.content.some((b: { type?: string }) => b?.type === 'tool_result'));
}

/** Every tool result in the conversation, in order, as text. */
export function anthropicToolOutputs(body: MessagesRequest): string[] {
  return (body.messages ?? []).flatMap((m) =>
    Array.isArray(m.content)
      ? m.content
          .filter((b: { type?: string }) => b?.type === 'tool_result')
          .map((b: { content?: unknown }) =>
            typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? ''),
          )
      : [],
  );
}

/** Anthropic Messages API: POST /v1/messages, streamed (SSE with event names) or not. */
export function replyAnthropic(res: ServerResponse, body: MessagesRequest, reply: Reply): void {
  const model = body.model ?? 'claude-fake';
  if (reply.kind === 'error') {
    const error =
      reply.status === 401
        ? { type: 'authentication_error', message: 'invalid x-api-key' }
        : { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' };
    sendJson(res, reply.status, { type: 'error', error }, reply.status === 429 ? { 'retry-after': '1' } : {});
    return;
  }
  const id = `msg_fake_${Date.now()}`;
  const content =
    reply.kind === 'text'
      ? [{ type: 'text', text: reply.text }]
      : [{ type: 'tool_use', id: `toolu_${reply.callId}`, name: reply.name, input: reply.args }];
  const stopReason = reply.kind === 'text' ? 'end_turn' : 'tool_use';
  const usageBlock = {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_read_input_tokens: usage.cacheRead,
    cache_creation_input_tokens: 0,
  };
  if (!body.stream) {
    sendJson(res, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: usageBlock,
    });
    return;
  }
  startSse(res);
  sendSse(
    res,
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usageBlock, output_tokens: 1 },
      },
    },
    'message_start',
  );
  if (reply.kind === 'text') {
    sendSse(
      res,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
    for (const piece of chunks(reply.text)) {
      sendSse(
        res,
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } },
        'content_block_delta',
      );
    }
  } else {
    sendSse(
      res,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: `toolu_${reply.callId}`, name: reply.name, input: {} },
      },
      'content_block_start',
    );
    const json = JSON.stringify(reply.args);
    const half = Math.floor(json.length / 2);
    for (const part of [json.slice(0, half), json.slice(half)]) {
      sendSse(
        res,
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: part } },
        'content_block_delta',
      );
    }
  }
  sendSse(res, { type: 'content_block_stop', index: 0 }, 'content_block_stop');
  sendSse(
    res,
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output },
    },
    'message_delta',
  );
  sendSse(res, { type: 'message_stop' }, 'message_stop');
  res.end();
}
