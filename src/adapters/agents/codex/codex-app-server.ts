import type { LaunchContext, ProcessController, RunIO } from '../../../core/adapter/index.ts';
import { type SteerMessage, type SteerOutcome, steeredNotice } from '../../../core/run/agent-input.ts';
import { isObj, type Obj, str } from '../../shared/record-fields.ts';
import { CODEX_REQUEST, isRunRequest } from './codex-app-server-ids.ts';

/** What the thread request carries besides its kind: the sandbox and the model, set per run. */
export interface CodexThreadSettings {
  sandbox: string;
  model?: string;
}

/** A turn's input: the prompt (non-image files named in it) and image files as `localImage`. */
export function codexTurnInput(text: string, images: readonly string[] = []): Obj[] {
  return [{ type: 'text', text, text_elements: [] }, ...images.map((path) => ({ type: 'localImage', path }))];
}

/**
 * What `codex app-server` reads first, at once: `initialize`, `initialized` and the thread request
 * (it answers them in order; checked with codex 0.169.0). The turn needs the thread's id, so the
 * controller starts it when the thread's answer comes.
 */
export function codexAppServerOpening(ctx: LaunchContext, settings: CodexThreadSettings): string {
  const initialize = {
    id: CODEX_REQUEST.initialize,
    method: 'initialize',
    params: { clientInfo: { name: 'agent-mux', title: 'agent-mux', version: '1' } },
  };
  const lines = [initialize, { method: 'initialized' }, codexThreadRequest(ctx, settings)];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** `thread/start`, or `thread/resume` / `thread/fork` of `request.resumeSessionId`, with `-a never`'s policy. */
export function codexThreadRequest(ctx: LaunchContext, settings: CodexThreadSettings): Obj {
  const { request } = ctx;
  const params: Obj = { cwd: request.cwd, approvalPolicy: 'never', sandbox: settings.sandbox };
  if (settings.model) params.model = settings.model;
  if (!request.resumeSessionId) return { id: CODEX_REQUEST.thread, method: 'thread/start', params };
  const method = request.fork ? 'thread/fork' : 'thread/resume';
  return { id: CODEX_REQUEST.thread, method, params: { ...params, threadId: request.resumeSessionId } };
}

export interface CodexAppServerRun {
  /** The first turn's input. */
  input: Obj[];
  /** When the run started (ms since the epoch): the `steered` notice says when in the run. */
  startedAt?: number;
}

/**
 * Drives `codex app-server` through one run (its stdin opens with codexAppServerOpening): with the
 * thread's id, `turn/start` with the prompt. A user's message mid-run
 * goes as `turn/steer` to the turn in progress: Codex takes it after the current step's tool calls,
 * before the next model request (codex 0.169.0, recorded), and shows it as a `userMessage` item,
 * where the `steered` notice is emitted. A steer that finds the turn over ("no active turn to
 * steer") starts another turn with the message, which the run then waits for (`holdsTurn`). When
 * the last turn ends and nothing waits, stdin is closed: the app-server exits at its end.
 *
 * Codex runs with approval policy `never` as `codex exec` did: requests from the server for an
 * approval are declined and any other request is refused, so no question can hold the run.
 */
export function codexAppServerController(io: RunIO, run: CodexAppServerRun): ProcessController {
  const startedAt = run.startedAt ?? Date.now();
  let threadId: string | undefined;
  let turnId: string | undefined;
  let turnActive = false;
  let closed: string | undefined;
  let sequence = 0;
  /** Messages sent and not yet seen taken, by the id of the request that carries them. */
  const pending = new Map<string, SteerMessage>();
  /** Messages Codex has (its steer answered, or sent as a turn of their own): waiting for their `userMessage` item. */
  const sent: { message: SteerMessage; ownTurn: boolean }[] = [];
  let extraTurns = 0;

  const write = (message: Obj) => io.writeLine(message).catch(() => undefined);
  const close = (reason: string) => {
    closed ??= reason;
    io.closeInput?.();
  };
  const startTurn = (id: string, input: Obj[]) => {
    if (!threadId) return;
    write({ id, method: 'turn/start', params: { threadId, input } });
  };
  /** A turn of their own for messages Codex did not take in the turn they were steered into. */
  const ownTurn = (messages: SteerMessage[]) => {
    extraTurns += 1;
    for (const message of messages) sent.push({ message, ownTurn: true });
    startTurn(`agent-mux-turn-${++sequence}`, codexTurnInput(messages.map((m) => m.text).join('\n\n')));
  };
  const waiting = () => pending.size > 0 || sent.length > 0 || extraTurns > 0;

  function onResponse(value: Obj): void {
    const id = str(value.id) ?? '';
    const failed = isObj(value.error);
    if (id === CODEX_REQUEST.thread && !failed && isObj(value.result) && isObj(value.result.thread)) {
      threadId = str(value.result.thread.id);
      startTurn(CODEX_REQUEST.turn, run.input);
      return;
    }
    if (isRunRequest(id)) {
      // Refused (the translator fails the run with Codex's reason): nothing more will happen.
      if (failed) close('the agent refused the run');
      return;
    }
    const message = pending.get(id);
    if (!message) return;
    pending.delete(id);
    // Refused: the turn ended before Codex took it ("no active turn to steer").
    if (failed) ownTurn([message]);
    else sent.push({ message, ownTurn: false });
  }

  function onNotification(method: string, params: Obj): void {
    if (method === 'turn/started') {
      turnActive = true;
      turnId = isObj(params.turn) ? str(params.turn.id) : turnId;
      return;
    }
    if (method === 'item/started' && isObj(params.item) && params.item.type === 'userMessage') {
      const text = userText(params.item);
      const at = sent.findIndex((s) => s.message.text === text);
      const taken = at >= 0 ? sent.splice(at, 1)[0] : undefined;
      if (taken) io.emit(steeredNotice(taken.message, Date.now() - startedAt));
      return;
    }
    if (method === 'turn/completed') {
      turnActive = false;
      if (extraTurns > 0) extraTurns -= 1;
      // Steers Codex accepted and the turn ended without: their own turn.
      const untaken = sent.filter((s) => !s.ownTurn);
      if (untaken.length > 0) {
        for (const s of untaken) sent.splice(sent.indexOf(s), 1);
        ownTurn(untaken.map((s) => s.message));
      }
      if (!waiting()) close('the agent has finished its turn');
    }
  }

  function onServerRequest(id: unknown, method: string): void {
    if (method === 'item/commandExecution/requestApproval' || method === 'item/fileChange/requestApproval') {
      write({ id, result: { decision: 'decline' } });
      return;
    }
    write({ id, error: { code: -32601, message: `agent-mux runs Codex headless: nobody can answer ${method}` } });
  }

  return {
    onRecord(record) {
      if (record.kind !== 'json' || !isObj(record.value)) return;
      const value = record.value;
      const method = str(value.method);
      if (method === undefined) onResponse(value);
      else if (value.id !== undefined) onServerRequest(value.id, method);
      else onNotification(method, isObj(value.params) ? value.params : {});
    },
    steer(message): SteerOutcome {
      if (closed !== undefined) return { kind: 'queued', reason: closed };
      const text = message.text.trim();
      if (text === '') return { kind: 'queued', reason: 'the message is empty' };
      if (!threadId || !turnId || !turnActive) return { kind: 'queued', reason: 'the agent has not started its turn' };
      const id = `agent-mux-steer-${++sequence}`;
      pending.set(id, { ...message, text });
      write({ id, method: 'turn/steer', params: { threadId, expectedTurnId: turnId, input: codexTurnInput(text) } });
      return { kind: 'delivered' };
    },
    holdsTurn: () => waiting(),
    requestStop() {
      close('the run is stopping');
      return true;
    },
  };
}

/** The text of a `userMessage` item (its text parts, joined). */
function userText(item: Obj): string {
  const content = Array.isArray(item.content) ? item.content.filter(isObj) : [];
  return content
    .map((part) => (part.type === 'text' ? (str(part.text) ?? '') : ''))
    .join('')
    .trim();
}
