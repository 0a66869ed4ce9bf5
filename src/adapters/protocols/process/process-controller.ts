import type { LaunchContext, ProcessController, RunIO } from '../../../core/adapter/index.ts';
import { callToolReported } from '../../../core/tools/call-tool-reported.ts';

/**
 * The adapter → agent half of the Process protocol: answers `tool_call` with `tool_result` through the
 * run's tool host, forwards budget changes as `budget_update`, and asks the agent to
 * `shutdown` before the core forces the stop. Transport-neutral: `io.writeLine` is the
 * program's stdin for the process adapter and `POST …/input` for a ca-http-v1 remote.
 */
export function processController(io: RunIO, ctx: LaunchContext): ProcessController {
  const answered = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  return {
    onEvent(event) {
      if (event.type !== 'tool_call_ready' || answered.has(event.toolCallId)) return;
      answered.add(event.toolCallId);
      const call = answer(io, event.toolCallId, event.toolName, event.input, ctx.clock).finally(() =>
        inFlight.delete(call),
      );
      inFlight.add(call);
    },
    settle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    requestStop(reason) {
      io.writeLine({ type: 'shutdown', reason }).catch(() => undefined);
      return true;
    },
    onBudget(remaining) {
      io.writeLine({ type: 'budget_update', remaining }).catch(() => undefined);
    },
  };
}

async function answer(
  io: RunIO,
  id: string,
  tool: string,
  input: unknown,
  clock: (() => number) | undefined,
): Promise<void> {
  const result = await callToolReported(
    io.tools,
    (draft) => io.emit(draft),
    {
      toolCallId: id,
      toolName: tool,
      input,
      signal: io.signal,
    },
    clock,
  );
  const reply = result.ok
    ? { type: 'tool_result', id, ok: true, value: result.value }
    : { type: 'tool_result', id, ok: false, error: result.error };
  await io.writeLine(reply).catch(() => undefined);
}
