import type { AgentSession, SessionContext, SessionOutcome } from '../../../core/adapter/index.ts';
import { parseDuration } from '../../../core/config/duration.ts';
import type { ErrorCode } from '../../../core/events/index.ts';
import { httpStatusErrorCode } from '../../../core/transport/http-status-error-code.ts';
import { SessionStop } from '../../shared/session-stop.ts';
import { bodyExcerpt } from '../chat-sse/http-error-detail.ts';
import type { GenericHttpAdapterConfig } from './generic-http-config.ts';

const MAX_ERROR_BODY = 4096;

/**
 * One request per run, as the generic-http profile sends it: the prompt as the raw body
 * (`Content-Type: text/plain; charset=utf-8` unless the configured headers say otherwise), the
 * response body streamed back as text. The timeout covers the whole exchange, body included.
 */
export async function openGenericHttpSession(
  ctx: SessionContext,
  config: GenericHttpAdapterConfig,
): Promise<AgentSession> {
  const timeoutMs = parseDuration(config.timeout);
  const stop = new SessionStop(ctx.signal);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([stop.signal, timeout]);
  const messageId = 'response';
  let open = false;
  let text = '';
  const closeMessage = () => {
    if (!open) return;
    open = false;
    ctx.emit({ type: 'message_stop', messageId, text });
  };
  stop.signal.addEventListener('abort', closeMessage, { once: true });

  const fail = (code: ErrorCode, message: string, extra: Partial<SessionOutcome> = {}): SessionOutcome => {
    closeMessage();
    ctx.emit({ type: 'error', code, message, recoverable: false });
    return { status: 'failed', message, ...extra };
  };
  const interrupted = (error: unknown): SessionOutcome => {
    if (stop.stopped) return stop.outcome();
    if (timeout.aborted) {
      return fail('timeout', `timeout: no complete response from ${config.base_url} within ${config.timeout}`, {
        reason: 'timeout',
      });
    }
    return fail('remote_unavailable', `HTTP error: ${causeOf(error)}`);
  };

  const run = async (): Promise<SessionOutcome> => {
    const bodyless = config.method === 'GET' || config.method === 'HEAD';
    // Set, not append: a configured `Content-Type` replaces the default, whatever its case.
    const headers = new Headers({ 'content-type': 'text/plain; charset=utf-8' });
    for (const [name, value] of Object.entries(config.headers)) headers.set(name, value);
    let response: Response;
    try {
      response = await fetch(config.base_url, {
        method: config.method,
        headers,
        ...(bodyless ? {} : { body: ctx.request.prompt }),
        signal,
      });
    } catch (error) {
      return interrupted(error);
    }
    if (response.status >= 400) {
      let body = '';
      try {
        body = (await response.text()).slice(0, MAX_ERROR_BODY);
      } catch (error) {
        return interrupted(error);
      }
      return fail(
        httpStatusErrorCode(response.status),
        `HTTP ${response.status}: ${bodyExcerpt(body) || response.statusText}`,
      );
    }
    ctx.emit({ type: 'message_start', messageId });
    open = true;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body ?? []) {
        const delta = decoder.decode(chunk, { stream: true });
        if (delta && open) {
          text += delta;
          ctx.emit({ type: 'text_delta', messageId, delta });
        }
      }
      const rest = decoder.decode();
      if (rest && open) {
        text += rest;
        ctx.emit({ type: 'text_delta', messageId, delta: rest });
      }
    } catch (error) {
      return interrupted(error);
    }
    if (stop.stopped) return interrupted(undefined);
    closeMessage();
    return { status: 'completed', output: text };
  };

  return stop.session(run());
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
