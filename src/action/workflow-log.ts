import type { AgentEvent } from '../core/events/index.ts';
import { formatClock } from '../github/report/markdown.ts';
import { endReasonPhrase } from '../github/report/run-lifecycle.ts';
import { summarize } from '../github/report/summarize.ts';
import { workflowLogLine } from './workflow-log-line.ts';
import { MAX_TITLE_CHARS, WorkflowLogWriter } from './workflow-log-writer.ts';

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

/**
 * The run in the job's log, one line per meaningful event, grouped per step as the check run
 * lists them: a `progress` summary or a tool call opens a group (`::group::`) that lasts until the
 * next step. Every line is redacted and kept on one line (so nothing the agent says can start a
 * workflow command), prefixed with the time since the run's first event ({@link WorkflowLogWriter});
 * the lines of the events that need nothing the log holds are {@link workflowLogLine}'s.
 */
export function createWorkflowLog(sink: WorkflowLogSink, redact: (text: string) => string): WorkflowLog {
  const log = new WorkflowLogWriter(sink, redact);
  let lastAt = 0;
  const tools = new Set<string>();
  const toolStart = (at: number, id: string, name: string, input: unknown) => {
    if (tools.has(id)) return;
    tools.add(id);
    const target = input === undefined ? '' : summarize(input, MAX_TITLE_CHARS);
    log.group(at, `tool ${name}${target ? ` ${target}` : ''}`);
  };

  return {
    onEvent(event) {
      log.seen(event.timestamp);
      lastAt = event.timestamp;
      const at = event.timestamp;
      switch (event.type) {
        case 'text_delta':
          log.appendText(at, event.delta);
          return;
        case 'message_stop':
          log.stopMessage(at, event.text);
          return;
        case 'progress':
          log.group(at, event.summary);
          return;
        case 'tool_call_start':
          toolStart(at, event.toolCallId, event.toolName, undefined);
          return;
        case 'mcp_tool_call_start':
          toolStart(at, event.toolCallId, `${event.server}/${event.toolName}`, event.input);
          return;
        case 'tool_call_ready':
          if (!tools.has(event.toolCallId)) toolStart(at, event.toolCallId, event.toolName, event.input);
          else log.line(at, `input: ${summarize(event.input)}`);
          return;
        case 'run_end':
          log.endGroup();
          log.line(at, `run ended after ${formatClock(event.durationMs)}: ${endReasonPhrase(event)}`);
          return;
        default: {
          const text = workflowLogLine(event);
          if (text !== undefined) log.line(at, text);
        }
      }
    },
    note(text) {
      log.line(Math.max(Date.now(), lastAt), text);
    },
    close() {
      log.endGroup();
    },
  };
}
