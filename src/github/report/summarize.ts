import { clip, truncate } from './markdown.ts';
import type { ToolStep } from './progress-types.ts';

/** The longest step title, tool target or approver name the reports keep. */
export const MAX_TITLE_CHARS = 120;
/** The longest one-line summary of a value (arguments, output, a reason) the reports keep. */
export const MAX_SUMMARY_CHARS = 200;

/** Argument fields that best name what a tool call works on, in order of preference. */
const TARGET_FIELDS = ['path', 'file_path', 'filePath', 'command', 'cmd', 'pattern', 'url', 'query', 'description'];

/** A value on one short line: strings as they are, anything else as JSON. */
export function summarize(value: unknown, max = MAX_SUMMARY_CHARS): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return clip(value, max);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = String(value);
  }
  return clip(json ?? String(value), max);
}

/**
 * What a tool call works on, from its arguments (a path, a command, a query), cut short. An ACP
 * tool call's input (`{title, kind, rawInput}`) is read through its `rawInput`, then its `title`.
 */
export function toolTarget(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  for (const field of TARGET_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return clip(value, MAX_TITLE_CHARS);
  }
  const raw = record.rawInput;
  const inner = typeof raw === 'object' && raw !== null && raw !== input ? toolTarget(raw) : undefined;
  if (inner) return inner;
  if (typeof record.kind === 'string' && typeof record.title === 'string' && record.title.trim() !== '')
    return clip(record.title, MAX_TITLE_CHARS);
  return undefined;
}

/** A tool step's title (`<tool> <target>`, cut short) and its parts as the title shows them. */
export function toolStepLabel(toolName: string, input: unknown): Pick<ToolStep, 'title' | 'tool' | 'target'> {
  const target = toolTarget(input);
  const title = truncate(target ? `${toolName} ${target}` : toolName, MAX_TITLE_CHARS);
  if (!target || title.length <= toolName.length + 1) return { title, tool: title };
  return { title, tool: toolName, target: title.slice(toolName.length + 1) };
}
