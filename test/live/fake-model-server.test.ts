import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { AFTER_TOOL_TEXT, PLAIN_TEXT } from './fake-model/script.ts';
import { type FakeModelServer, startFakeModelServer } from './fake-model-server.ts';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sse(url: string, body: unknown): Promise<{ event?: string; data: string }[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const frames: { event?: string; data: string }[] = [];
  const parser = createParser({ onEvent: (e) => frames.push({ event: e.event, data: e.data }) });
  parser.feed(await res.text());
  return frames;
}

describe('fake model server', () => {
  it('streams Anthropic Messages text and a tool_use for a shell tool, then the final answer', async () => {
    server = await startFakeModelServer({ case: 'tool' });
    const tools = [
      {
        name: 'Bash',
        input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      },
    ];
    const first = await sse(`${server.url}/v1/messages`, {
      model: 'm',
      stream: true,
      tools,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(first.map((f) => f.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = first
      .filter((f) => f.event === 'content_block_delta')
      .map((f) => JSON.parse(f.data).delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo agent-mux-live' });
    const second = await sse(`${server.url}/v1/messages`, {
      model: 'm',
      stream: true,
      tools,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'agent-mux-live' }] }],
    });
    const text = second
      .filter((f) => f.event === 'content_block_delta')
      .map((f) => JSON.parse(f.data).delta.text)
      .join('');
    expect(text).toBe(AFTER_TOOL_TEXT);
  });

  it('streams Chat Completions chunks ending in usage and [DONE]', async () => {
    server = await startFakeModelServer({ case: 'plain' });
    const frames = await sse(`${server.url}/v1/chat/completions`, {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(frames.at(-1)?.data).toBe('[DONE]');
    const text = frames
      .slice(0, -1)
      .flatMap((f) => JSON.parse(f.data).choices.map((c: { delta: { content?: string } }) => c.delta.content ?? ''))
      .join('');
    expect(text).toBe(PLAIN_TEXT);
    expect(JSON.parse(frames.at(-2)?.data ?? '{}').usage.prompt_tokens).toBe(120);
  });

  it('streams Responses events with a function call whose arguments fit the schema (argv array)', async () => {
    server = await startFakeModelServer({ case: 'tool' });
    const tools = [
      { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array' } } } },
    ];
    const frames = await sse(`${server.url}/v1/responses`, {
      model: 'm',
      stream: true,
      tools,
      input: [{ role: 'user', content: 'hi' }],
    });
    expect(frames[0]?.event).toBe('response.created');
    expect(frames.at(-1)?.event).toBe('response.completed');
    const done = frames.find((f) => f.event === 'response.output_item.done');
    const item = JSON.parse(done?.data ?? '{}').item;
    expect(item).toMatchObject({ type: 'function_call', name: 'shell' });
    expect(JSON.parse(item.arguments)).toEqual({ command: ['bash', '-lc', 'echo agent-mux-live'] });
  });

  it('streams Gemini candidates and answers a function response with text', async () => {
    server = await startFakeModelServer({ case: 'tool' });
    const tools = [
      {
        functionDeclarations: [
          { name: 'run_shell_command', parameters: { type: 'OBJECT', properties: { command: { type: 'STRING' } } } },
        ],
      },
    ];
    const call = await sse(`${server.url}/v1beta/models/gemini-fake:streamGenerateContent?alt=sse`, {
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools,
    });
    expect(JSON.parse(call[0]?.data ?? '{}').candidates[0].content.parts[0].functionCall).toEqual({
      name: 'run_shell_command',
      args: { command: 'echo agent-mux-live' },
    });
    const answer = await sse(`${server.url}/v1beta/models/gemini-fake:streamGenerateContent?alt=sse`, {
      contents: [{ role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: {} } }] }],
      tools,
    });
    expect(answer.map((f) => JSON.parse(f.data).candidates[0].content.parts[0].text).join('')).toBe(AFTER_TOOL_TEXT);
  });

  it('answers 401 and 429 in each provider shape', async () => {
    server = await startFakeModelServer({ case: 'rate-429' });
    const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('rate_limit_error');
    await server.close();
    server = await startFakeModelServer({ case: 'auth-401' });
    const chat = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(chat.status).toBe(401);
    expect(((await chat.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect(server.requests.map((r) => r.reply)).toEqual(['error']);
  });
});
