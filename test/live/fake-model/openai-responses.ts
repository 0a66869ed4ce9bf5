import type { ServerResponse } from 'node:http';
import { openaiError } from './openai-chat.ts';
import { chunks, type Reply, type ToolInfo, usage } from './script.ts';
import { sendJson, sendSse, startSse } from './sse.ts';

interface ResponsesRequest {
  model?: string;
  stream?: boolean;
  tools?: { type: string; name?: string; parameters?: Record<string, unknown> }[];
  input?: string | { type?: string; role?: string }[];
}

export function responsesTools(body: ResponsesRequest): ToolInfo[] {
  return (body.tools ?? []).flatMap((t): ToolInfo[] => {
    if (t.type === 'local_shell') return [{ name: 'local_shell', native: 'local_shell' }];
    // Codex defers MCP tools behind a client-executed search (`tool_search_call` → `tool_search_output`).
    if (t.type === 'tool_search') return [{ name: 'tool_search', native: 'tool_search', schema: t.parameters }];
    return t.name ? [{ name: t.name, schema: t.parameters }] : [];
  });
}

export function responsesHasToolResult(body: ResponsesRequest): boolean {
  if (!Array.isArray(body.input)) return false;
  const items = body.input;
  let lastModelItem = -1;
  items.forEach((item, i) => {
    if (item.role === 'assistant' || (typeof item.type === 'string' && /_call$/.test(item.type))) lastModelItem = i;
  });
  return items.slice(lastModelItem + 1).some((item) => typeof item.type === 'string' && item.type.endsWith('_output'));
}

/** Every tool output in the conversation (`*_call_output` items), in order, as text. */
export function responsesToolOutputs(body: ResponsesRequest): string[] {
  if (!Array.isArray(body.input)) return [];
  return body.input
    .filter((item) => typeof item.type === 'string' && item.type.endsWith('_output'))
    .map((item) => {
      if (item.type === 'tool_search_output') return JSON.stringify((item as { tools?: unknown }).tools ?? []);
      const output = (item as { output?: unknown }).output;
      return typeof output === 'string' ? output : JSON.stringify(output ?? '');
    });
}

/** OpenAI Responses API: POST /v1/responses, streamed as named SSE events ending in response.completed. */
export function replyResponses(
  res: ServerResponse,
  body: ResponsesRequest,
  reply: Reply,
  tools: readonly ToolInfo[],
): void {
  if (reply.kind === 'error') {
    openaiError(res, reply.status);
    return;
  }
  const id = `resp_fake_${Date.now()}`;
  const model = body.model ?? 'gpt-fake';
  let item: Record<string, unknown>;
  if (reply.kind === 'text') {
    item = {
      id: `msg_${id}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    };
  } else if (tools.find((t) => t.name === reply.name)?.native === 'tool_search') {
    item = {
      id: `ts_${id}`,
      type: 'tool_search_call',
      status: 'completed',
      call_id: reply.callId,
      execution: 'client',
      arguments: reply.args,
    };
  } else if (tools.find((t) => t.name === reply.name)?.native === 'local_shell') {
    item = {
      id: `lsh_${id}`,
      type: 'local_shell_call',
      status: 'completed',
      call_id: reply.callId,
      action: { type: 'exec', command: ['bash', '-lc', 'echo agent-mux-live'], env: {} },
    };
  } else {
    item = {
      id: `fc_${id}`,
      type: 'function_call',
      status: 'completed',
      call_id: reply.callId,
      name: reply.name,
      ...(reply.namespace ? { namespace: reply.namespace } : {}),
      arguments: JSON.stringify(reply.args),
    };
  }
  const response = (status: string, output: unknown[], withUsage: boolean) => ({
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model,
    output,
    usage: withUsage
      ? {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cacheRead },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.output,
        }
      : null,
  });
  if (!body.stream) {
    sendJson(res, 200, response('completed', [item], true));
    return;
  }
  let sequence = 0;
  const send = (type: string, data: Record<string, unknown>) =>
    sendSse(res, { type, sequence_number: sequence++, ...data }, type);
  startSse(res);
  send('response.created', { response: response('in_progress', [], false) });
  send('response.in_progress', { response: response('in_progress', [], false) });
  if (item.type === 'message') {
    const text = reply.kind === 'text' ? reply.text : '';
    send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    const part = { type: 'output_text', text: '', annotations: [] };
    send('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part });
    for (const piece of chunks(text)) {
      send('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: piece });
    }
    send('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text });
    send('response.content_part.done', {
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      part: { ...part, text },
    });
  } else if (item.type === 'function_call') {
    send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } });
    send('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: item.arguments });
    send('response.function_call_arguments.done', { item_id: item.id, output_index: 0, arguments: item.arguments });
  } else {
    send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } });
  }
  send('response.output_item.done', { output_index: 0, item });
  send('response.completed', { response: response('completed', [item], true) });
  res.end();
}
