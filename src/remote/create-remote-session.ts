import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  CALLER_TOOLS_EXTENSION,
  CALLER_TOOLS_UNSUPPORTED,
  CALLER_TOOLS_VERSION,
} from '../core/transport/caller-tools-extension.ts';
import { readJsonBody } from './read-json-body.ts';
import type { RemoteServerState } from './remote-server-state.ts';
import { RemoteSession } from './remote-session.ts';
import { sendJson } from './send-json.ts';
import { createSessionSchema } from './session-requests.ts';
import { OWNED_PREFIX, OWNER_FILE } from './sweep-stale-workspaces.ts';

/** What a served agent working with the caller's tools is told about them. */
const CALLER_TOOLS_PROMPT =
  "Your tools act on the caller's checkout of the repository, on another machine: use them (shell, read_file, write_file, list_files) with paths relative to the repository root. The directory you start in is empty scratch space, not the repository.";

/**
 * `POST /v1/sessions`: starts a session's run in its workspace and answers 201 with its id (and the
 * caller-tools extension, when taken); 503 when the server runs its most sessions already.
 */
export async function createRemoteSession(
  server: RemoteServerState,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const parsed = createSessionSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return sendJson(response, 400, {
      error: 'bad_request',
      message: `invalid session request${issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : ''}`,
    });
  }
  const { options, sessions, maxSessions } = server;
  const running = [...sessions.values()].filter((s) => s.running).length;
  if (running >= maxSessions) {
    response.setHeader('retry-after', server.retryAfter);
    return sendJson(response, 503, { error: 'busy', message: `this server runs at most ${maxSessions} sessions` });
  }
  const body = parsed.data;
  const offer = body.extensions?.[CALLER_TOOLS_EXTENSION];
  const takesCallerTools = offer !== undefined && options.adapter.callerTools !== undefined;
  if (offer?.required && !takesCallerTools) {
    return sendJson(response, 422, {
      error: CALLER_TOOLS_UNSUPPORTED,
      message: `${options.adapter.id} cannot work with the caller's tools only (its own tools would change this host's files, not the caller's checkout); see docs/remote.md`,
    });
  }
  const workspace = await sessionWorkspace(server.workspaceRoot, body.task.cwd);
  if (workspace === undefined) {
    return sendJson(response, 400, {
      error: 'bad_request',
      message: `task.cwd ${body.task.cwd} is outside this server's workspace root`,
    });
  }
  const model = body.task.model ?? body.context?.model;
  const id = `ses_${randomUUID()}`;
  const session = new RemoteSession({
    id,
    adapter: options.adapter,
    request: {
      prompt: body.task.prompt,
      cwd: workspace.cwd,
      ...(model ? { model } : {}),
      ...(takesCallerTools ? { systemPrompt: CALLER_TOOLS_PROMPT } : {}),
    },
    ...(takesCallerTools ? { callerTools: offer.tools } : {}),
    ...(options.fence ? { fence: options.fence } : {}),
    runId: body.runId,
    taskId: body.taskId,
    leaseToken: body.leaseToken,
    leaseEpoch: body.fencingToken,
    heartbeatMs: server.heartbeatMs,
    idleTimeoutMs: server.idleTimeoutMs,
    graceMs: options.graceMs,
    env: options.env,
    ownedDir: workspace.ownedDir,
    onRemoved: (removed) => {
      if (sessions.get(removed.id) === removed) sessions.delete(removed.id);
    },
  });
  sessions.set(id, session);
  return sendJson(response, 201, {
    sessionId: id,
    ...(takesCallerTools ? { extensions: { [CALLER_TOOLS_EXTENSION]: { version: CALLER_TOOLS_VERSION } } } : {}),
  });
}

/**
 * A session's working directory: the task's `cwd` inside the workspace root (`undefined` when it
 * is outside), or else a fresh directory the session owns, marked with the server's pid.
 */
async function sessionWorkspace(
  root: string,
  taskCwd: string | undefined,
): Promise<{ cwd: string; ownedDir?: string } | undefined> {
  if (taskCwd !== undefined) {
    const cwd = resolve(root, taskCwd);
    const inside = relative(root, cwd);
    return inside.startsWith('..') || isAbsolute(inside) ? undefined : { cwd };
  }
  await mkdir(root, { recursive: true });
  const ownedDir = await mkdtemp(join(root, OWNED_PREFIX));
  await writeFile(join(ownedDir, OWNER_FILE), `${process.pid}\n`);
  return { cwd: ownedDir, ownedDir };
}
