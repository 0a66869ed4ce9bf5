import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError, type ConfigIssue } from '../errors/index.ts';
import { configIssuesFromZod } from './config-issues-from-zod.ts';
import { type AgentMuxConfig, agentMuxConfigSchema } from './config-schema.ts';
import { attachSource, SourceLocator } from './source-locator.ts';

type Syntax = 'json' | 'yaml';
type Parsed = { ok: true; value: unknown } | { ok: false; issues: ConfigIssue[]; cause: unknown };

/**
 * Parses and validates the text of a configuration file. `file` names it in errors; its
 * extension picks the syntax (`.json`; `.yml` / `.yaml`); with any other, JSON is tried, then
 * YAML. Throws a `ConfigError` listing every problem with its field path and line.
 */
export function parseConfig(text: string, file: string): AgentMuxConfig {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const extension = extname(file).toLowerCase();
  const syntax: Syntax | undefined =
    extension === '.json' ? 'json' : extension === '.yml' || extension === '.yaml' ? 'yaml' : undefined;
  const locator = new SourceLocator(source);

  let parsed: Parsed;
  if (syntax === 'json') parsed = parseJson(source, locator);
  else if (syntax === 'yaml') parsed = parseYaml(source, locator);
  else {
    parsed = parseJson(source, locator);
    if (!parsed.ok) {
      const yaml = parseYaml(source, locator);
      // Both failed: the text is more likely meant as JSON when it starts like JSON.
      parsed = yaml.ok || !/^\s*[[{]/.test(source) ? yaml : parsed;
    }
  }
  if (!parsed.ok) throw new ConfigError(file, parsed.issues, { cause: parsed.cause });

  const result = agentMuxConfigSchema.safeParse(parsed.value, { reportInput: true });
  if (!result.success) {
    const issues = configIssuesFromZod(result.error, { schema: agentMuxConfigSchema, data: parsed.value, locator });
    throw new ConfigError(file, issues, { cause: result.error });
  }
  attachSource(result.data, file, locator);
  return result.data;
}

function parseJson(text: string, locator: SourceLocator): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const offset = jsonErrorOffset(text, message);
    const line = offset === undefined ? undefined : locator.lineAt(offset);
    return { ok: false, issues: [{ path: '', message: `invalid JSON: ${jsonMessage(message)}`, line }], cause: error };
  }
}

/** V8's message without the position (the issue carries the line) or the echoed text. */
function jsonMessage(message: string): string {
  return message
    .replace(/ in JSON at position \d+(?: \(line \d+ column \d+\))?$/, '')
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/\n/g, '\\n');
}

/**
 * Where JSON.parse failed. V8 names the position for most errors; for an unexpected token it
 * does not, so find the shortest prefix that fails other than by ending too early.
 */
function jsonErrorOffset(text: string, message: string): number | undefined {
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  const failsInside = (end: number): boolean => {
    try {
      JSON.parse(text.slice(0, end));
      return false;
    } catch (error) {
      // A prefix that merely stops early fails at its end (or says so): that is not the error.
      const message = (error as Error).message;
      const at = /at position (\d+)/.exec(message);
      return at ? Number(at[1]) < end : !/Unexpected end of JSON input/.test(message);
    }
  };
  let low = 0;
  let high = text.length;
  if (!failsInside(high)) return undefined;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (failsInside(mid)) high = mid;
    else low = mid + 1;
  }
  return Math.max(0, low - 1);
}

function parseYaml(text: string, locator: SourceLocator): Parsed {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error) => ({
      path: '',
      message: `invalid YAML: ${error.message}`,
      line: locator.lineAt(error.pos[0]),
    }));
    return { ok: false, issues, cause: doc.errors[0] };
  }
  // An empty document (or one of comments only) is an empty configuration.
  const value: unknown = doc.toJS({ maxAliasCount: 100 }) ?? {};
  return { ok: true, value };
}
