import { z } from 'zod';
import type { EventDraft } from '../events/index.ts';
import { ToolDefinitionError } from './tool-definition-error.ts';
import type { ToolDescription, ToolOutcome } from './tool-host.ts';

/** What the front end asked for: the prompt and whatever context it has (repository, issue, pull request). */
export interface ToolTask {
  prompt: string;
  /** `owner/name`, when the run works on a GitHub repository. */
  repository?: string;
  issue?: unknown;
  pullRequest?: unknown;
  [field: string]: unknown;
}

/** What a tool handler may use besides its input. */
export interface ToolContext {
  runId: string;
  /** Absolute path of the run's workspace, as given to the host (not resolved). */
  workspacePath: string;
  /** Aborted when the run or this call is cancelled. */
  signal: AbortSignal;
  /** Reports an event into the run's stream (`comment`, `progress`, `file_output`, …). */
  emit(draft: EventDraft): void;
  task: ToolTask;
  toolCallId?: string;
  /** The outcome recorded so far, if any. */
  readonly outcome: ToolOutcome | undefined;
  /** Records the run's outcome; throws a `ToolError` when one is already recorded. */
  recordOutcome(outcome: ToolOutcome): void;
}

/** One tool: its name, what it is for, the zod schema of its input and what it does. */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  /** 1–64 characters of `[A-Za-z0-9_-]`, the name agents call it by. */
  name: string;
  description: string;
  input: S;
  /** Receives the input already parsed by `input` (defaults applied). Throwing gives `{ ok: false }`. */
  handler(input: z.output<S>, ctx: ToolContext): Promise<unknown>;
}

/** Any tool, whatever its input type (`handler` is a method, so its parameter is checked bivariantly). */
export type AnyToolDefinition = ToolDefinition<z.ZodType>;

/** Declares a tool with its handler's input typed from the schema. */
export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}

/** The tools of one host, by name. */
export interface ToolRegistry {
  get(name: string): AnyToolDefinition | undefined;
  names(): string[];
  /** Names, descriptions and JSON Schemas of the inputs, in the order the tools were given. */
  describe(): ToolDescription[];
}

const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Indexes tools by name. Throws `ToolDefinitionError` on a malformed or duplicate name. */
export function createToolRegistry(tools: readonly AnyToolDefinition[]): ToolRegistry {
  const byName = new Map<string, AnyToolDefinition>();
  for (const tool of tools) {
    if (!toolNamePattern.test(tool.name)) {
      throw new ToolDefinitionError(tool.name, `tool name "${tool.name}" must be 1-64 characters of A-Z a-z 0-9 _ -`);
    }
    if (byName.has(tool.name)) {
      throw new ToolDefinitionError(tool.name, `tool "${tool.name}" is defined twice`);
    }
    byName.set(tool.name, tool);
  }
  const descriptions = [...byName.values()].map(describeTool);
  return {
    get: (name) => byName.get(name),
    names: () => [...byName.keys()],
    describe: () => descriptions.map((d) => ({ ...d, inputSchema: structuredClone(d.inputSchema) })),
  };
}

/** The description agents see: the input schema as JSON Schema (what callers send, so defaults are optional). */
export function describeTool(tool: AnyToolDefinition): ToolDescription {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' });
  return { name: tool.name, description: tool.description, inputSchema };
}
