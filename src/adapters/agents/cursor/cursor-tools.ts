import { isObj, type Obj, str } from '../../shared/record-fields.ts';

/** A Cursor tool call as the translator needs it. */
export interface ToolShape {
  /** The tool's name: the `<kind>` of `<kind>ToolCall`, or `function.name`. */
  name: string;
  args: unknown;
  result?: Obj;
  mcp?: { server: string; tool: string; input: unknown };
}

/** The tool a `tool_call` record describes (`<kind>ToolCall` or `function`), or undefined. */
export function toolShape(toolCall: Obj): ToolShape | undefined {
  for (const [key, body] of Object.entries(toolCall)) {
    if (!key.endsWith('ToolCall') || !isObj(body)) continue;
    const name = key.slice(0, -'ToolCall'.length);
    const args = body.args ?? {};
    const result = isObj(body.result) ? body.result : undefined;
    if (name === 'mcp' && isObj(args)) {
      const tool = str(args.toolName) ?? str(args.name) ?? 'unknown';
      const server = str(args.providerIdentifier) ?? str(args.serverIdentifier) ?? serverOf(str(args.name), tool);
      return {
        name: str(args.name) ?? tool,
        args,
        result,
        mcp: { server, tool, input: args.args ?? args.arguments ?? {} },
      };
    }
    return { name, args, result };
  }
  if (isObj(toolCall.function)) {
    const fn = toolCall.function;
    const raw = fn.arguments;
    let args: unknown = raw ?? {};
    if (typeof raw === 'string') {
      try {
        args = JSON.parse(raw);
      } catch {
        args = { arguments: raw };
      }
    }
    return { name: str(fn.name) ?? 'unknown', args, result: isObj(fn.result) ? fn.result : undefined };
  }
  return undefined;
}

/** `name` is `<server>-<tool>` when no server field is given. */
function serverOf(name: string | undefined, tool: string): string {
  if (name?.endsWith(`-${tool}`)) return name.slice(0, -tool.length - 1);
  return 'unknown';
}

/** A completed call's output and whether it failed, from its `success` / `rejected` / `failure` / `error` result. */
export function toolOutput(shape: ToolShape): { output: unknown; isError: boolean } {
  const result = shape.result;
  if (!result) return { output: '', isError: false };
  if (isObj(result.success)) {
    const success = result.success;
    if (shape.name === 'shell') {
      const exitCode = typeof success.exitCode === 'number' ? success.exitCode : 0;
      const text = [str(success.stdout), str(success.stderr)].filter(Boolean).join('');
      return { output: text || success, isError: exitCode !== 0 };
    }
    if (shape.mcp) return { output: mcpText(success.content) ?? success, isError: success.isError === true };
    if (shape.name === 'read' && typeof success.content === 'string')
      return { output: success.content, isError: false };
    return { output: success, isError: false };
  }
  for (const key of ['rejected', 'failure', 'error']) {
    const failure = result[key];
    if (failure === undefined) continue;
    const message = isObj(failure) ? (str(failure.reason) ?? str(failure.error) ?? str(failure.message)) : str(failure);
    return { output: message ?? `${shape.name} ${key}`, isError: true };
  }
  return { output: result, isError: false };
}

/** MCP content blocks as Cursor prints them (`[{text:{text}}]` or `[{type:"text",text}]`) → their text. */
function mcpText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter(isObj).map((block) => {
    if (isObj(block.text)) return str(block.text.text) ?? '';
    return str(block.text) ?? '';
  });
  return parts.join('');
}
