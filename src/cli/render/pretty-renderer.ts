import type { Writable } from 'node:stream';
import { styleText } from 'node:util';
import type { AgentEvent } from '../../core/events/index.ts';
import { brief, crashLines, type Paint, prettyEventLine, runEndLine, seconds } from './pretty-event-line.ts';
import { StatusSpinner } from './status-spinner.ts';

export interface PrettyRendererOptions {
  out: Writable & { isTTY?: boolean };
  /** Where the spinner draws; no spinner when it is not a terminal. */
  status: Writable & { isTTY?: boolean };
  color: boolean;
  adapter: string;
  /** Show `log` and `debug` events. */
  verbose: boolean;
}

export interface PrettyRenderer {
  onEvent(event: AgentEvent): void;
  /** Stops the spinner (before prompting, and at the end). */
  pause(): void;
  resume(): void;
  close(): void;
}

/**
 * A readable live view of a run: one line per step, streamed text, a spinner with the elapsed time.
 * The lines of the events that change nothing here are {@link prettyEventLine}'s.
 */
export function prettyRenderer(options: PrettyRendererOptions): PrettyRenderer {
  const { out, verbose } = options;
  const paint: Paint = (style, text) => (options.color ? styleText(style, text, { validateStream: false }) : text);
  const started = Date.now();
  let status = 'starting';
  const spinner = new StatusSpinner(
    options.status,
    () => `${options.adapter} · ${seconds(Date.now() - started)} · ${status}`,
  );
  const text = new Map<string, string>();
  /** Messages a fatal error line already showed: a crash or the run's end that repeats one leaves it out. */
  const shown = new Set<string>();

  const line = (s: string) => {
    spinner.clear();
    out.write(`${s}\n`);
  };
  const flushText = (id: string, all: boolean) => {
    const pending = text.get(id) ?? '';
    const cut = all ? pending.length : pending.lastIndexOf('\n') + 1;
    if (cut <= 0) return;
    for (const row of pending.slice(0, cut).replace(/\n$/, '').split('\n')) line(`  ${row}`);
    text.set(id, pending.slice(cut));
  };

  spinner.start();
  return {
    onEvent(event) {
      switch (event.type) {
        case 'progress':
          status = event.summary;
          line(`${paint('cyan', '›')} ${event.summary}`);
          break;
        case 'text_delta': {
          const id = event.messageId ?? '';
          text.set(id, (text.get(id) ?? '') + event.delta);
          flushText(id, false);
          status = 'writing';
          break;
        }
        case 'message_stop':
          flushText(event.messageId ?? '', true);
          break;
        case 'thinking_delta':
          status = 'thinking';
          if (verbose) line(paint('dim', `  ∴ ${brief(event.delta)}`));
          break;
        case 'tool_call_ready':
          status = `running ${event.toolName}`;
          line(`${paint('yellow', '⚙')} ${event.toolName} ${paint('dim', brief(event.input))}`);
          break;
        case 'approval_request':
          status = `waiting for approval of ${event.toolName}`;
          line(`${paint('magenta', '?')} approval ${event.approvalId}: ${event.toolName} ${brief(event.input)}`);
          break;
        case 'auth_error':
          shown.add(event.message);
          line(`${paint('red', '✗ auth:')} ${event.message}${event.guidance ? ` — ${event.guidance}` : ''}`);
          break;
        case 'error':
          if (event.recoverable && !verbose) break;
          if (!event.recoverable) shown.add(event.message);
          line(`${paint(event.recoverable ? 'yellow' : 'red', `! ${event.code}:`)} ${event.message}`);
          break;
        case 'crash':
          for (const row of crashLines(event, shown, paint)) line(row);
          break;
        case 'run_end':
          for (const id of text.keys()) flushText(id, true);
          spinner.stop();
          line(runEndLine(event, shown, paint));
          break;
        default: {
          const row = prettyEventLine(event, paint, verbose);
          if (row !== undefined) line(row);
        }
      }
    },
    pause: () => spinner.stop(),
    resume: () => spinner.start(),
    close: () => spinner.stop(),
  };
}
