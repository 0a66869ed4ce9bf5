import { isAbsolute, relative, sep } from 'node:path';
import {
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  RequestError,
  type WriteTextFileRequest,
  type WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import type { EventDraft } from '../../../core/events/index.ts';
import { callToolReported } from '../../../core/tools/call-tool-reported.ts';
import type { ToolHost } from '../../../core/tools/tool-host.ts';
import { isObject } from './acp-message.ts';

export interface AcpFilesContext {
  tools?: ToolHost;
  /** The session's `cwd` (the workspace): ACP paths are absolute, the tools take them relative to it. */
  cwd: string;
  emit: (draft: EventDraft) => void;
  signal: AbortSignal;
  /** Makes the ids of the visible tool calls (`acp-fs-1`, …). */
  nextId: () => string;
}

/** Most bytes one `fs/read_text_file` returns (the tool's pages are joined up to this). */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/**
 * `fs/read_text_file`: the run's `read_file` tool (policy, workspace confinement), shown as a tool
 * call; `line` (1-based) and `limit` cut the text the agent gets.
 */
export async function readTextFile(params: ReadTextFileRequest, ctx: AcpFilesContext): Promise<ReadTextFileResponse> {
  let content = '';
  let offset = 0;
  const path = workspacePath(params.path, ctx.cwd);
  for (;;) {
    const value = await callTool(ctx, 'read_file', { path, offset });
    const page = isObject(value) && typeof value.content === 'string' ? value.content : '';
    content += page;
    const truncated = isObject(value) && value.truncated === true;
    offset += Buffer.byteLength(page, 'utf8');
    if (!truncated || page === '' || offset >= MAX_READ_BYTES) break;
  }
  return { content: sliceLines(content, params.line ?? undefined, params.limit ?? undefined) };
}

/** `fs/write_text_file`: the run's `write_file` tool, an approvable and visible tool call. */
export async function writeTextFile(
  params: WriteTextFileRequest,
  ctx: AcpFilesContext,
): Promise<WriteTextFileResponse> {
  await callTool(ctx, 'write_file', { path: workspacePath(params.path, ctx.cwd), content: params.content });
  return {};
}

/** A path inside the workspace relative to it; anything else is passed on for the tool to refuse. */
export function workspacePath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(cwd, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return path;
  return rel;
}

/** Lines `line` (1-based) to `line + limit - 1` of `text`. */
export function sliceLines(text: string, line?: number, limit?: number): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}

async function callTool(ctx: AcpFilesContext, toolName: string, input: Record<string, unknown>): Promise<unknown> {
  const toolCallId = ctx.nextId();
  ctx.emit({ type: 'tool_call_start', toolCallId, toolName });
  ctx.emit({ type: 'tool_call_ready', toolCallId, toolName, input });
  const result = await callToolReported(ctx.tools, ctx.emit, { toolCallId, toolName, input, signal: ctx.signal });
  if (!result.ok) throw RequestError.internalError(undefined, result.error);
  return result.value;
}
