import type { ToolCallOptions, ToolDescription, ToolHost, ToolResult } from '../core/tools/tool-host.ts';

/** The Process protocol's agent → adapter `tool_call` record. */
export interface ToolCallRecord {
  type: 'tool_call';
  id: string;
  tool: string;
  args: unknown;
}

/**
 * The remote run's tools are the caller's: each call is sent to the caller as a `tool_call`
 * record and resolves when the caller posts the matching `tool_result` (or the call is aborted).
 */
export class CallerToolHost implements ToolHost {
  readonly #send: (record: ToolCallRecord) => void;
  readonly #pending = new Map<string, (result: ToolResult) => void>();
  readonly #tools: readonly ToolDescription[];
  #next = 0;

  /** `tools`: what the caller offered (the `caller-tools` extension); none when it offered nothing. */
  constructor(send: (record: ToolCallRecord) => void, tools: readonly ToolDescription[] = []) {
    this.#send = send;
    this.#tools = tools;
  }

  /** The caller's tools as it described them; the caller decides what each call may do. */
  list(): ToolDescription[] {
    return this.#tools.map((tool) => ({ ...tool, inputSchema: structuredClone(tool.inputSchema) }));
  }

  call(name: string, input: unknown, options: ToolCallOptions = {}): Promise<ToolResult> {
    let id = options.toolCallId ?? `call_${++this.#next}`;
    while (this.#pending.has(id)) id = `${id}_${++this.#next}`;
    const signal = options.signal;
    if (signal?.aborted) return Promise.resolve({ ok: false, error: 'the run was stopped' });
    return new Promise<ToolResult>((resolve) => {
      const onAbort = () => finish({ ok: false, error: 'the run was stopped' });
      const finish = (result: ToolResult) => {
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
        resolve(result);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, finish);
      this.#send({ type: 'tool_call', id, tool: name, args: input ?? {} });
    });
  }

  /** Resolves the pending call `id`; false when no such call is pending. */
  answer(id: string, result: ToolResult): boolean {
    const finish = this.#pending.get(id);
    if (!finish) return false;
    finish(result);
    return true;
  }

  /** Fails every pending call (the session is going away). */
  cancelAll(error: string): void {
    for (const finish of [...this.#pending.values()]) finish({ ok: false, error });
  }

  get pendingCount(): number {
    return this.#pending.size;
  }
}
