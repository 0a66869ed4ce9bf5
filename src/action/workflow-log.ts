import { exhaustive } from '../core/events/exhaustive.ts';
import type { AgentEvent } from '../core/events/index.ts';
import { formatClock, truncate } from '../github/report/markdown.ts';
import { summarize } from '../github/report/run-progress.ts';

/** Where the lines go: `@actions/core` in the Action (`info`, `startGroup`, `endGroup`). */
export interface WorkflowLogSink {
  info(line: string): void;
  startGroup(title: string): void;
  endGroup(): void;
}

/** Streams a run into the job's log as it happens. */
export interface WorkflowLog {
  onEvent(event: AgentEvent): void;
  /** A line of the run's own (approval asked on GitHub, files reset, the result). */
  note(line: string): void;
  /** Ends the open group and prints the message still being streamed. */
  close(): void;
}

const MAX_LINE_CHARS = 500;
const MAX_TITLE_CHARS = 160;

/**
 * The run in the job's log, one line per meaningful event, grouped per step as the check run
 * lists them: a `progress` summary or a tool call opens a group (`::group::`) that lasts until the
 * next step. Every line is redacted and kept on one line (so nothing the agent says can start a
 * workflow command), prefixed with the time since the run's first event.
 */
export function createWorkflowLog(sink: WorkflowLogSink, redact: (text: string) => string): WorkflowLog {
  let startedAt: number | undefined;
  let lastAt = 0;
  let grouped = false;
  let message = '';
  let messageAt = 0;
  const tools = new Set<string>();

  const clean = (text: string, max: number) => truncate(redact(text).replace(/\s+/g, ' ').trim(), max);
  const stamp = (at: number) => `[${formatClock(at - (startedAt ?? at))}]`;
  const line = (at: number, text: string) => sink.info(`${stamp(at)} ${clean(text, MAX_LINE_CHARS)}`);
  const flush = () => {
    if (message.trim() === '') {
      message = '';
      return;
    }
    line(messageAt, `agent: ${message}`);
    message = '';
  };
  const group = (at: number, title: string) => {
    flush();
    if (grouped) sink.endGroup();
    sink.startGroup(`${stamp(at)} ${clean(title, MAX_TITLE_CHARS)}`);
    grouped = true;
  };
  const endGroup = () => {
    flush();
    if (grouped) sink.endGroup();
    grouped = false;
  };
  const toolStart = (at: number, id: string, name: string, input: unknown) => {
    if (tools.has(id)) return;
    tools.add(id);
    const target = input === undefined ? '' : summarize(input, MAX_TITLE_CHARS);
    group(at, `tool ${name}${target ? ` ${target}` : ''}`);
  };

  return {
    onEvent(event) {
      startedAt ??= event.timestamp;
      lastAt = event.timestamp;
      const at = event.timestamp;
      switch (event.type) {
        case 'text_delta':
          if (message === '') messageAt = at;
          if (message.length < MAX_LINE_CHARS) message += event.delta;
          return;
        case 'message_stop':
          if (message === '' && event.text) {
            message = event.text;
            messageAt = at;
          }
          flush();
          return;
        case 'session_start':
          flush();
          line(at, `session started${event.model ? ` · model ${event.model}` : ''}`);
          return;
        case 'progress':
          group(at, event.summary);
          return;
        case 'tool_call_start':
          toolStart(at, event.toolCallId, event.toolName, undefined);
          return;
        case 'mcp_tool_call_start':
          toolStart(at, event.toolCallId, `${event.server}/${event.toolName}`, event.input);
          return;
        case 'tool_call_ready':
          if (!tools.has(event.toolCallId)) toolStart(at, event.toolCallId, event.toolName, event.input);
          else {
            flush();
            line(at, `input: ${summarize(event.input)}`);
          }
          return;
        case 'tool_result':
        case 'mcp_tool_result': {
          flush();
          const took =
            'durationMs' in event && event.durationMs !== undefined ? ` (${Math.round(event.durationMs)} ms)` : '';
          const output = summarize(event.output);
          line(at, `${event.isError ? 'failed' : 'done'}${took}${output ? `: ${output}` : ''}`);
          return;
        }
        case 'approval_request':
          flush();
          line(
            at,
            `approval asked: ${event.toolName} ${summarize(event.input)}${event.reason ? ` (${event.reason})` : ''}`,
          );
          return;
        case 'approval_granted':
          flush();
          line(at, `approval ${event.approvalId} granted${event.by ? ` by ${event.by}` : ''} (${event.scope})`);
          return;
        case 'approval_denied':
          flush();
          line(
            at,
            `approval ${event.approvalId} ${event.timedOut ? 'timed out' : 'denied'}${event.by ? ` by ${event.by}` : ''}: ${event.reason}`,
          );
          return;
        case 'file_output':
          flush();
          line(at, `file written: ${event.path}`);
          return;
        case 'comment':
          flush();
          line(at, `comment: ${event.text}`);
          return;
        case 'log':
          flush();
          line(at, `${event.source}: ${event.line}`);
          return;
        case 'error':
          flush();
          line(at, `error ${event.code}: ${event.message}`);
          return;
        case 'auth_error':
          flush();
          line(at, `auth error: ${event.message}${event.guidance ? ` (${event.guidance})` : ''}`);
          return;
        case 'rate_limit_error':
          flush();
          line(at, `rate limited: ${event.message}`);
          return;
        case 'context_exceeded':
          flush();
          line(at, `context exceeded${event.message ? `: ${event.message}` : ''}`);
          return;
        case 'crash': {
          flush();
          const how = event.signal ? `signal ${event.signal}` : `exit code ${event.exitCode ?? '?'}`;
          const tail = event.stderr.trim().split('\n').at(-1) ?? '';
          line(at, `crashed (${how})${tail ? `: ${tail}` : ''}`);
          return;
        }
        case 'run_end':
          endGroup();
          line(
            at,
            `run ended: ${event.reason}${event.message ? ` (${event.message})` : ''} after ${formatClock(event.durationMs)}`,
          );
          return;
        // Not written to the workflow log.
        case 'debug':
        case 'message_start':
        case 'thinking_start':
        case 'thinking_delta':
        case 'thinking_stop':
        case 'image_output':
        case 'notice':
        case 'cost':
        case 'session_resume':
        case 'session_fork':
        case 'turn_start':
        case 'turn_end':
        case 'tool_input_delta':
        case 'skill_loaded':
        case 'skill_invoked':
        case 'plugin_loaded':
        case 'plugin_invoked':
          return;
        default:
          exhaustive(event);
          return;
      }
    },
    note(text) {
      flush();
      line(Math.max(Date.now(), lastAt), text);
    },
    close() {
      endGroup();
    },
  };
}
