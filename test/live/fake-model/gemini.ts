import type { ServerResponse } from 'node:http';
import { chunks, type Reply, type ToolInfo, usage } from './script.ts';
import { sendJson, sendSse, startSse } from './sse.ts';

interface GenerateRequest {
  contents?: { role?: string; parts?: Record<string, unknown>[] }[];
  tools?: {
    functionDeclarations?: {
      name: string;
      parameters?: Record<string, unknown>;
      parametersJsonSchema?: Record<string, unknown>;
    }[];
  }[];
}

export function geminiTools(body: GenerateRequest): ToolInfo[] {
  return (body.tools ?? []).flatMap((t) =>
    (t.functionDeclarations ?? []).map((f) => ({
      name: f.name,
      schema: f.parametersJsonSchema ?? lowerTypes(f.parameters),
    })),
  );
}

/** Gemini schemas spell types in capitals (`STRING`); the picker reads JSON Schema. */
function lowerTypes(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!schema) return undefined;
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === 'type' && typeof value === 'string' ? value.toLowerCase() : value,
  );
}

/** A function response after the model's last turn (CLIs may append their own content after it). */
export function geminiHasToolResult(body: GenerateRequest): boolean {
  const contents = body.contents ?? [];
  const lastModel = contents.map((c) => c.role).lastIndexOf('model');
  return contents.slice(lastModel + 1).some((c) => c.parts?.some((p) => 'functionResponse' in p) ?? false);
}

/** Every tool result in the conversation, in order, as text. */
export function geminiToolOutputs(body: GenerateRequest): string[] {
  return (body.contents ?? []).flatMap((c) =>
    (c.parts ?? []).filter((p) => 'functionResponse' in p).map((p) => JSON.stringify(p)),
  );
}

export function geminiError(res: ServerResponse, status: 401 | 429): void {
  const error =
    status === 401
      ? { code: 401, message: 'API key not valid. Please pass a valid API key.', status: 'UNAUTHENTICATED' }
      : {
          code: 429,
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
        };
  sendJson(res, status, { error });
}

/** Gemini: POST /v1beta/models/<model>:streamGenerateContent?alt=sse (data-only SSE) or :generateContent. */
export function replyGemini(res: ServerResponse, model: string, stream: boolean, reply: Reply): void {
  if (reply.kind === 'error') {
    geminiError(res, reply.status);
    return;
  }
  const usageMetadata = {
    promptTokenCount: usage.input,
    candidatesTokenCount: usage.output,
    cachedContentTokenCount: usage.cacheRead,
    totalTokenCount: usage.input + usage.output,
  };
  const frame = (parts: unknown[], finish?: string) => ({
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
    ...(finish ? { usageMetadata } : {}),
    modelVersion: model,
    responseId: `fake-${Date.now()}`,
  });
  const parts =
    reply.kind === 'text' ? [{ text: reply.text }] : [{ functionCall: { name: reply.name, args: reply.args } }];
  if (!stream) {
    sendJson(res, 200, frame(parts, 'STOP'));
    return;
  }
  startSse(res);
  if (reply.kind === 'text') {
    const pieces = chunks(reply.text);
    pieces.forEach((piece, i) => {
      sendSse(res, frame([{ text: piece }], i === pieces.length - 1 ? 'STOP' : undefined));
    });
  } else {
    sendSse(res, frame(parts, 'STOP'));
  }
  res.end();
}
