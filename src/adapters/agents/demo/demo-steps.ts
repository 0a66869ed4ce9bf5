/** The demo agent's moves: pausing between steps, calling a tool as an agent does, saying a message. */
import type { SessionContext } from '../../../core/adapter/index.ts';
import { callToolReported } from '../../../core/tools/call-tool-reported.ts';
import type { ToolResult } from '../../../core/tools/tool-host.ts';

/** What the demo's script does, each emitting the events a real agent's would. */
export interface DemoSteps {
  /** Pauses between two steps; throws once the session was stopped or aborted. */
  step(): Promise<void>;
  /** Calls one of the run's tools, announced as a streamed tool call and reported with its result. */
  callTool(toolName: string, input: Record<string, unknown>): Promise<ToolResult>;
  /** Streams `text` as message `messageId`, word by word. */
  say(messageId: string, text: string): Promise<void>;
}

/**
 * The moves of one demo session: `delay` between steps (cut short by the session's abort), and
 * `stopped()`, the reason the core stopped the session, if it did.
 */
export function demoSteps(ctx: SessionContext, delay: number, stopped: () => string | undefined): DemoSteps {
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  let calls = 0;
  return {
    step: async () => {
      await sleep(delay);
      const reason = stopped();
      if (reason || ctx.signal.aborted) throw new Error(`stopped: ${reason ?? 'aborted'}`);
    },
    callTool: async (toolName, input) => {
      const toolCallId = `demo_call_${++calls}`;
      ctx.emit({ type: 'tool_call_start', toolCallId, toolName });
      ctx.emit({ type: 'tool_input_delta', toolCallId, delta: JSON.stringify(input) });
      ctx.emit({ type: 'tool_call_ready', toolCallId, toolName, input });
      return await callToolReported(ctx.tools, ctx.emit, { toolCallId, toolName, input, signal: ctx.signal });
    },
    say: async (messageId, text) => {
      ctx.emit({ type: 'message_start', messageId, model: 'demo-1' });
      for (const word of text.match(/\S+\s*/g) ?? []) {
        ctx.emit({ type: 'text_delta', messageId, delta: word });
        await sleep(Math.min(30, delay / 5));
      }
      ctx.emit({ type: 'message_stop', messageId, text });
    },
  };
}
