import type { Writable } from 'node:stream';
import { styleText } from 'node:util';
import yoctoSpinner, { type Spinner } from 'yocto-spinner';
import { exhaustive } from '../../core/events/exhaustive.ts';
import type { AgentEvent } from '../../core/events/index.ts';

type Style = Parameters<typeof styleText>[0];

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

const brief = (value: unknown, max = 120): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return '';
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A readable live view of a run: one line per step, streamed text, a spinner with the elapsed time. */
export function prettyRenderer(options: PrettyRendererOptions): PrettyRenderer {
  const { out, verbose } = options;
  const paint = (style: Style, text: string) =>
    options.color ? styleText(style, text, { validateStream: false }) : text;
  const started = Date.now();
  let status = 'starting';
  let spinner: Spinner | undefined;
  let ticker: NodeJS.Timeout | undefined;
  const text = new Map<string, string>();
  /** Messages a fatal error line already showed: a crash or the run's end that repeats one leaves it out. */
  const shown = new Set<string>();

  const refresh = () => {
    if (spinner) spinner.text = `${options.adapter} · ${seconds(Date.now() - started)} · ${status}`;
  };
  const startSpinner = () => {
    if (!options.status.isTTY || spinner) return;
    spinner = yoctoSpinner({ stream: options.status, handleSignals: false });
    refresh();
    spinner.start();
    ticker = setInterval(refresh, 100);
    ticker.unref();
  };
  const stopSpinner = () => {
    if (ticker) clearInterval(ticker);
    ticker = undefined;
    spinner?.stop();
    spinner?.clear();
    spinner = undefined;
  };
  const line = (s: string) => {
    spinner?.clear();
    out.write(`${s}\n`);
  };
  const flushText = (id: string, all: boolean) => {
    const pending = text.get(id) ?? '';
    const cut = all ? pending.length : pending.lastIndexOf('\n') + 1;
    if (cut <= 0) return;
    for (const row of pending.slice(0, cut).replace(/\n$/, '').split('\n')) line(`  ${row}`);
    text.set(id, pending.slice(cut));
  };

  startSpinner();
  return {
    onEvent(event) {
      switch (event.type) {
        case 'session_start':
          line(paint('dim', `● session ${event.sessionId}${event.model ? ` · ${event.model}` : ''}`));
          break;
        case 'session_resume':
          line(paint('dim', `● resumed ${event.sessionId}`));
          break;
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
        case 'tool_result':
          line(
            event.isError
              ? `  ${paint('red', '✗')} ${brief(event.output)}`
              : `  ${paint('green', '✓')} ${paint('dim', brief(event.output, 80))}`,
          );
          break;
        case 'mcp_tool_call_start':
          line(`${paint('yellow', '⚙')} ${event.server}/${event.toolName} ${paint('dim', brief(event.input))}`);
          break;
        case 'approval_request':
          status = `waiting for approval of ${event.toolName}`;
          line(`${paint('magenta', '?')} approval ${event.approvalId}: ${event.toolName} ${brief(event.input)}`);
          break;
        case 'approval_granted':
          line(`  ${paint('green', 'approved')} (${event.scope})${event.by ? ` by ${event.by}` : ''}`);
          break;
        case 'approval_denied':
          line(`  ${paint('red', 'denied')}: ${event.reason}`);
          break;
        case 'comment':
          line(`${paint('blue', '✎')} ${event.text}`);
          break;
        case 'file_output':
          line(`${paint('blue', '▤')} wrote ${event.fileName}`);
          break;
        case 'cost':
          line(
            paint(
              'dim',
              `$ ${event.inputTokens} in · ${event.outputTokens} out${event.usd === undefined ? '' : ` · USD ${event.usd.toFixed(4)}`}`,
            ),
          );
          break;
        case 'auth_error':
          shown.add(event.message);
          line(`${paint('red', '✗ auth:')} ${event.message}${event.guidance ? ` — ${event.guidance}` : ''}`);
          break;
        case 'rate_limit_error':
          line(`${paint('red', '✗ rate limited:')} ${event.message}`);
          break;
        case 'context_exceeded':
          line(`${paint('red', '✗ context window exceeded')}`);
          break;
        case 'crash': {
          const stderr = event.stderr && !shown.has(event.stderr.trim()) ? event.stderr : '';
          // A program that never ran (not installed) has no exit to tell: the error line said it all.
          if (event.exitCode === null && event.signal === null && stderr === '') break;
          const how = event.signal ?? (event.exitCode === null ? 'did not start' : `exit ${event.exitCode}`);
          line(`${paint('red', `✗ crashed (${how})`)}`);
          if (stderr) for (const row of stderr.split('\n').slice(-10)) line(paint('dim', `  ${row}`));
          break;
        }
        case 'error':
          if (event.recoverable && !verbose) break;
          if (!event.recoverable) shown.add(event.message);
          line(`${paint(event.recoverable ? 'yellow' : 'red', `! ${event.code}:`)} ${event.message}`);
          break;
        case 'log':
          if (verbose) line(paint('dim', `  [${event.source}] ${event.line}`));
          break;
        case 'debug':
          if (verbose) line(paint('dim', `  [debug] ${event.message}`));
          break;
        case 'run_end': {
          for (const id of text.keys()) flushText(id, true);
          stopSpinner();
          const t = event.totals;
          const summary = `${seconds(event.durationMs)} · ${t.inputTokens + t.outputTokens} tokens · USD ${t.usd.toFixed(4)}`;
          const mark = event.reason === 'completed' ? paint('green', '✔') : paint('red', '✘');
          const message = event.message && !shown.has(event.message) ? `: ${event.message}` : '';
          line(`${mark} ${event.reason}${message} · ${summary}`);
          break;
        }
        // Not shown by the pretty renderer.
        case 'message_start':
        case 'thinking_start':
        case 'thinking_stop':
        case 'image_output':
        case 'notice':
        case 'session_fork':
        case 'turn_start':
        case 'turn_end':
        case 'tool_call_start':
        case 'tool_input_delta':
        case 'mcp_tool_result':
        case 'skill_loaded':
        case 'skill_invoked':
        case 'plugin_loaded':
        case 'plugin_invoked':
          break;
        default:
          exhaustive(event);
          break;
      }
    },
    pause: stopSpinner,
    resume: startSpinner,
    close: stopSpinner,
  };
}
