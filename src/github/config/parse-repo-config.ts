import { parseDocument } from 'yaml';
import { configIssuesFromZod } from '../../core/config/config-issues-from-zod.ts';
import { attachSource, SourceLocator } from '../../core/config/source-locator.ts';
import { ConfigError } from '../../core/errors/config-error.ts';
import { type RepoConfig, repoConfigSchema } from './repo-config-schema.ts';

/** The outcome of reading a repository's configuration; bad content is an error value, never thrown. */
export type RepoConfigResult =
  | { ok: true; config: RepoConfig; source: 'file' | 'default'; path: string }
  | { ok: false; error: ConfigError; path: string };

/**
 * Parses and validates the YAML text of `.github/agent-mux.yml`; `file` names it in messages.
 * Pure. A syntax error or an invalid field gives a `ConfigError` whose issues carry the field's
 * dotted path and line (`trigger.permission: expected one of … (.github/agent-mux.yml:3)`).
 * An empty file (or comments only) is the default configuration. The parsed config remembers
 * its source, so later checks can name lines with `lineOfConfigPath(config, path)`.
 */
export function parseRepoConfig(text: string, file: string): RepoConfigResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const locator = new SourceLocator(source);
  const doc = parseDocument(source, { prettyErrors: false });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((error) => ({
      path: '',
      message: `invalid YAML: ${error.message}`,
      // An error found at the end (an unclosed quote) points at the last line with text, not past it.
      line: locator.lineAt(Math.min(error.pos[0], source.trimEnd().length)),
    }));
    return { ok: false, error: new ConfigError(file, issues, { cause: doc.errors[0] }), path: file };
  }

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const issues = [{ path: '', message: `invalid YAML: ${message}` }];
    return { ok: false, error: new ConfigError(file, issues, { cause: error }), path: file };
  }

  const result = repoConfigSchema.safeParse(data, { reportInput: true });
  if (!result.success) {
    const issues = configIssuesFromZod(result.error, { schema: repoConfigSchema, data, locator });
    return { ok: false, error: new ConfigError(file, issues, { cause: result.error }), path: file };
  }
  attachSource(result.data, file, locator);
  return { ok: true, config: result.data, source: 'file', path: file };
}
