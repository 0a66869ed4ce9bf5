import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  anthropicHasToolResult,
  anthropicToolOutputs,
  anthropicTools,
  replyAnthropic,
} from './fake-model/anthropic.ts';
import { geminiHasToolResult, geminiToolOutputs, geminiTools, replyGemini } from './fake-model/gemini.ts';
import { chatHasToolResult, chatToolOutputs, chatTools, replyChat } from './fake-model/openai-chat.ts';
import {
  replyResponses,
  responsesHasToolResult,
  responsesToolOutputs,
  responsesTools,
} from './fake-model/openai-responses.ts';
import { decide, type Reply, type ShellCall } from './fake-model/script.ts';
import { sendJson } from './fake-model/sse.ts';
import type { LiveCaseName } from './live-spec.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** What the server answered: the scripted reply, or `other` for side endpoints. */
  reply: Reply['kind'] | 'other' | 'not-found';
}

export interface FakeModelServer {
  /** Base URL without a trailing slash and without `/v1`, e.g. http://127.0.0.1:43123. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const MODELS = ['fake-model', 'claude-fake', 'gpt-fake', 'gemini-fake'];

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A stand-in for the model providers the agent CLIs talk to, on 127.0.0.1: Anthropic Messages,
 * OpenAI Responses and Chat Completions, and Gemini, streamed as the real APIs stream. What it
 * answers follows the live case (test/live/fake-model/script.ts): a plain answer; a shell tool
 * call, then an answer once a tool result comes back; 401; 429. Paths may carry any prefix
 * (`/v1`, `/api/v1`, …) so a CLI's base-URL conventions don't matter.
 */
export async function startFakeModelServer(options: {
  case: LiveCaseName;
  /** What the tool cases run (default MARKER_COMMAND). */
  shell?: ShellCall;
  /** How long to wait, after recording a request, before answering it (a slow model; default 0). */
  replyDelayMs?: number;
}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      headers: req.headers,
      body,
      reply: 'other',
    };
    requests.push(record);
    if (options.replyDelayMs) await new Promise((resolve) => setTimeout(resolve, options.replyDelayMs));
    try {
      record.reply = route(req.method ?? 'GET', url, body, res, options.case, options.shell);
    } catch (error) {
      sendJson(res, 500, { error: { message: `fake model server: ${(error as Error).message}` } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Body = Record<string, unknown>;

function route(
  method: string,
  url: URL,
  raw: unknown,
  res: ServerResponse,
  caseName: LiveCaseName,
  shell?: ShellCall,
): RecordedRequest['reply'] {
  const path = url.pathname;
  const body = (typeof raw === 'object' && raw !== null ? raw : {}) as Body;
  if (method === 'POST' && path.endsWith('/messages/count_tokens')) {
    sendJson(res, 200, { input_tokens: 120 });
    return 'other';
  }
  if (method === 'POST' && path.endsWith('/messages')) {
    const reply = decide(
      caseName,
      anthropicTools(body),
      anthropicHasToolResult(body),
      shell,
      anthropicToolOutputs(body),
    );
    replyAnthropic(res, body, reply);
    return reply.kind;
  }
  if (method === 'POST' && path.endsWith('/chat/completions')) {
    const reply = decide(caseName, chatTools(body), chatHasToolResult(body), shell, chatToolOutputs(body));
    replyChat(res, body, reply);
    return reply.kind;
  }
  if (method === 'POST' && path.endsWith('/responses')) {
    const tools = responsesTools(body);
    const reply = decide(caseName, tools, responsesHasToolResult(body), shell, responsesToolOutputs(body));
    replyResponses(res, body, reply, tools);
    return reply.kind;
  }
  const gemini = path.match(
    /\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens|embedContent|batchEmbedContents)$/,
  );
  if (method === 'POST' && gemini) {
    const [, model = 'gemini-fake', verb] = gemini;
    if (verb === 'countTokens') {
      sendJson(res, 200, { totalTokens: 120 });
      return 'other';
    }
    if (verb === 'embedContent' || verb === 'batchEmbedContents') {
      sendJson(res, 200, { embedding: { values: [0.1, 0.2, 0.3] }, embeddings: [{ values: [0.1, 0.2, 0.3] }] });
      return 'other';
    }
    const reply = decide(caseName, geminiTools(body), geminiHasToolResult(body), shell, geminiToolOutputs(body));
    replyGemini(res, model, verb === 'streamGenerateContent', reply);
    return reply.kind;
  }
  if (method === 'GET' && /\/models\/?$/.test(path)) {
    sendJson(res, 200, {
      object: 'list',
      data: MODELS.map((id) => ({
        id,
        object: 'model',
        created: 0,
        owned_by: 'agent-mux',
        type: 'model',
        display_name: id,
      })),
      models: MODELS.map((name) => ({ name: `models/${name}`, supportedGenerationMethods: ['generateContent'] })),
      has_more: false,
    });
    return 'other';
  }
  sendJson(res, 404, { error: { message: `fake model server: no route for ${method} ${path}` } });
  return 'not-found';
}
